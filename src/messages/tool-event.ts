/**
 * Tool events (`tool.call` / `tool.result`): what a skill's platform tool
 * calls emit. A streaming run sends them as they happen; a non-streaming run
 * collects them into the final message's metadata part (`toolEventsPart`).
 */
import { create, fromJson, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromDate, ValueSchema } from "@bufbuild/protobuf/wkt";
import type { Part } from "../../gen/a2a_pb.js";
import { type ToolEvent, ToolEventSchema } from "../../gen/novaos/v1/tool_event_pb.js";
import { encodeMessage } from "../a2a/protojson.js";
import { novaosMetadataPart } from "./metadata-part.js";
import { ToolEventType } from "./vocabulary.js";
import { NOVAOS_TOOL_EVENTS_KEY } from "./wire-keys.js";

/** A `tool.call` event, stamped now. */
export function toolCallEvent(callId: string, toolName: string, args: JsonObject = {}, at = new Date()): ToolEvent {
  return create(ToolEventSchema, {
    type: ToolEventType.CALL,
    callId,
    toolName,
    arguments: args,
    time: timestampFromDate(at),
  });
}

export interface ToolResultInit {
  success: boolean;
  result?: JsonValue;
  error?: string;
  durationMs?: number;
}

/** A `tool.result` event, stamped now. */
export function toolResultEvent(callId: string, toolName: string, init: ToolResultInit, at = new Date()): ToolEvent {
  return create(ToolEventSchema, {
    type: ToolEventType.RESULT,
    callId,
    toolName,
    success: init.success,
    result: init.result === undefined ? undefined : fromJson(ValueSchema, init.result),
    error: init.error ?? "",
    durationMs: init.durationMs,
    time: timestampFromDate(at),
  });
}

/** The metadata part carrying `events`. */
export function toolEventsPart(events: readonly ToolEvent[]): Part {
  return novaosMetadataPart({ [NOVAOS_TOOL_EVENTS_KEY]: events.map((e) => encodeMessage(ToolEventSchema, e)) });
}

export type { ToolEvent };
