import { describe, expect, it } from "vitest";
import { NovaOSMetadataSchema } from "../../gen/novaos/v1/metadata_pb.js";
import type { PayloadKind } from "../../src/messages/index.js";
import * as messages from "../../src/messages/index.js";

describe("NovaOS wire keys", () => {
  it("pins every decided value (docs/wire.md)", () => {
    expect({
      media: messages.NOVAOS_METADATA_MEDIA_TYPE,
      platformMarker: messages.NOVAOS_METADATA_CONTENT_TYPE,
      skillMarker: messages.NOVAOS_SKILL_METADATA_CONTENT_TYPE,
      partKey: messages.NOVAOS_METADATA_PART_KEY,
      contextKey: messages.NOVAOS_CONTEXT_METADATA_KEY,
      defaultMediaType: messages.DEFAULT_MEDIA_TYPE,
      hitl: messages.NOVAOS_HITL_KEY,
      hitlResponse: messages.NOVAOS_HITL_RESPONSE_KEY,
      error: messages.NOVAOS_ERROR_KEY,
      progress: messages.NOVAOS_PROGRESS_KEY,
      oauth: messages.NOVAOS_PAUSE_OAUTH_KEY,
      writeConfirmation: messages.NOVAOS_PAUSE_WRITE_CONFIRMATION_KEY,
      skillError: messages.NOVAOS_SKILL_ERROR_KEY,
      toolEvents: messages.NOVAOS_TOOL_EVENTS_KEY,
    }).toEqual({
      media: "application/vnd.novaos.metadata+json",
      platformMarker: "application/vnd.novaos.metadata+json",
      skillMarker: "application/vnd.novaos.skill-metadata+json",
      partKey: "content_type",
      contextKey: "novaosContext",
      defaultMediaType: "text/plain",
      hitl: "hitl",
      hitlResponse: "hitl_response",
      error: "error",
      progress: "progress",
      oauth: "oauth_required",
      writeConfirmation: "write_confirmation_required",
      skillError: "skill_error",
      toolEvents: "tool_events",
    });
  });

  it("names the payload kinds exactly as the proto's member keys", () => {
    const kinds: Record<PayloadKind, true> = {
      hitl: true,
      hitl_response: true,
      error: true,
      progress: true,
      oauth_required: true,
      write_confirmation_required: true,
      skill_error: true,
      tool_events: true,
    };
    expect(Object.keys(kinds).sort()).toEqual(NovaOSMetadataSchema.fields.map((f) => f.jsonName).sort());
  });

  it("uses the proto field names as the JSON names of every NovaOS payload field", () => {
    const seen = new Set<string>();
    const visit = (schema: typeof NovaOSMetadataSchema) => {
      if (seen.has(schema.typeName) || schema.typeName.startsWith("google.")) return;
      seen.add(schema.typeName);
      for (const f of schema.fields) {
        expect(f.jsonName, `${schema.typeName}.${f.name}`).toBe(f.name);
        if (f.message) visit(f.message as typeof NovaOSMetadataSchema);
      }
    };
    visit(NovaOSMetadataSchema);
    expect(seen.size).toBeGreaterThan(8);
  });

  it("pins the vocabularies", () => {
    expect(Object.values(messages.HitlType)).toEqual([
      "plan_confirmation",
      "input_request",
      "batch_input_request",
      "execution_progress",
      "error_notification",
      "info",
      "success",
    ]);
    expect(messages.InputType.TEXT).toBe("text");
    expect(messages.InputType.EMAIL).toBe("email");
    expect(Object.values(messages.ErrorType)).toContain("connection_error");
    expect(Object.values(messages.ProgressStatus)).toEqual([
      "pending",
      "in_progress",
      "completed",
      "failed",
      "cancelled",
    ]);
    expect(messages.ToolEventType).toEqual({ CALL: "tool.call", RESULT: "tool.result" });
    expect(messages.DEFAULT_SUBMIT_ACTION).toEqual({ id: "submit", label: "Submit", style: "primary" });
  });
});
