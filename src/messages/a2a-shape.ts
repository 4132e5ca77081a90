/**
 * Duck typing over the shapes a NovaOS reader meets: generated A2A messages,
 * their wire JSON (v1.0, or v0.3 with `kind`), ACP-era messages and the
 * legacy convenience `Message`. Nothing here throws on foreign input.
 */
import { isMessage } from "@bufbuild/protobuf";
import { MessageSchema } from "../../gen/a2a_pb.js";
import { isJsonObject } from "../a2a/json-object.js";

/**
 * Whether `value` presents as an A2A message: a generated `Message`, or an
 * object carrying one of the envelope fields the spec makes REQUIRED besides
 * `parts` (`messageId` / `message_id`, `role`). Legacy and ACP messages carry
 * `parts` alone. `kind` plays no part (v1.0 dropped it).
 */
export function isA2AShaped(value: unknown): boolean {
  if (isMessage(value, MessageSchema)) return true;
  return isJsonObject(value) && ("messageId" in value || "message_id" in value || "role" in value);
}

/** Media types compared by essence: case-insensitive, parameters ignored. */
export function sameMediaType(a: unknown, b: string): boolean {
  return typeof a === "string" && a.split(";", 1)[0]?.trim().toLowerCase() === b;
}
