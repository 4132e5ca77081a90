import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonReply } from "../platform/contract-server.js";
import { expectRefused, type SpecExchange, startSpecExchange } from "./spec-exchange.js";
import { TOOL_SAMPLES } from "./tool-samples.js";

// openapi/memory.yaml: one dispatch endpoint, validated per tool on the way in and on the way out.

let spec: SpecExchange;
beforeAll(async () => {
  spec = await startSpecExchange("memory.yaml", ["memoryDispatch"]);
});
afterAll(() => spec.server.close());

const dispatch = (body: unknown, answer?: JsonReply) => spec.send("POST", "/api/v1/mcp", { body, answer });
const ok = (tool: string, result: unknown): JsonReply => ({ status: 200, body: { tool, result } });
const CONTEXT = { request_id: "run-1", trace_id: "4bf92f3577b34da6a3ce929d0e0e4736" };

// The gateway's novaos.memory.* tools share these payload and result schemas.
const SHARED = ["query", "write", "update", "forget", "hint", "assemble"] as const;

describe("openapi/memory.yaml", () => {
  it("accepts every tool's payload and result (the six shared with the MCP Gateway, and the two status reads)", async () => {
    for (const op of SHARED) {
      const sample = TOOL_SAMPLES[`novaos.memory.${op}`];
      const tool = `memory.${op}`;
      expect(
        await dispatch({ tool, payload: sample.arguments, context: CONTEXT }, ok(tool, sample.result)),
        tool,
      ).toEqual([]);
    }
    const statuses: [string, object, object][] = [
      [
        "memory.hint_status",
        { hint_id: "hint-1" },
        { hint_id: "hint-1", status: "consolidated", submitted_at: "2026-07-25T14:00:00Z", resolved_at: null },
      ],
      [
        "memory.proposal_status",
        { proposal_id: "prop_1" },
        { proposal_id: "prop_1", status: "committed", reason: null, memory_id: "mem_9" },
      ],
      [
        "memory.proposal_status",
        { proposal_id: "prop_2" },
        { proposal_id: "prop_2", status: "rejected", reason: "pii_detected", memory_id: null },
      ],
    ];
    for (const [tool, payload, result] of statuses) {
      expect(await dispatch({ tool, payload }, ok(tool, result)), tool).toEqual([]);
    }
  });

  it("refuses payloads that break the client-side rules", async () => {
    for (const op of SHARED) {
      const bad = TOOL_SAMPLES[`novaos.memory.${op}`].badArguments;
      expectRefused(await dispatch({ tool: `memory.${op}`, payload: bad.value }), bad.why);
    }
    expectRefused(await dispatch({ tool: "memory.proposal_status", payload: { proposal_id: "mem_1" } }), "no prop_");
    expectRefused(await dispatch({ tool: "memory.recall", payload: {} }), "unknown tool");
    expectRefused(
      await dispatch({ tool: "memory.query", payload: { scope: "agent", query: "x" }, context: { trace_id: "T" } }),
      "trace id not 32 hex",
    );
  });

  it("checks each result against its tool", async () => {
    const wrong: [string, object][] = [
      ["memory.proposal_status", { proposal_id: "prop_1", status: "committed", reason: null, memory_id: null }],
      ["memory.proposal_status", { proposal_id: "prop_1", status: "pending", reason: null, memory_id: "mem_1" }],
      ["memory.hint_status", { hint_id: "h", status: "lost", submitted_at: null, resolved_at: null }],
      ["memory.query", TOOL_SAMPLES["novaos.memory.write"].result],
    ];
    for (const [tool, result] of wrong) {
      const payload =
        tool === "memory.query"
          ? { scope: "run", query: "x" }
          : tool.endsWith("proposal_status")
            ? { proposal_id: "prop_1" }
            : { hint_id: "h" };
      const violations = await dispatch({ tool, payload }, ok(tool, result));
      expect(violations, `${tool} ${JSON.stringify(result)}`).toHaveLength(1);
      expect(violations[0]).toMatch(/memoryDispatch 200 response/);
    }
  });

  it("answers every documented refusal with the platform error body", async () => {
    const payload = TOOL_SAMPLES["novaos.memory.update"].arguments;
    for (const [status, error] of [
      [404, "not_found"],
      [409, "version_conflict"],
      [422, "scope_not_writable"],
      [403, "forbidden"],
      [503, "unavailable"],
    ] as const) {
      expect(await dispatch({ tool: "memory.update", payload }, { status, body: { error } }), error).toEqual([]);
    }
  });
});
