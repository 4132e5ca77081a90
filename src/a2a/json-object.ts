/**
 * The one "is this a JSON object?" guard. Everything that reads JSON from a
 * peer (cards, registry records, envelopes, metadata maps) asks it before
 * reading members, so the answer must not differ from one reader to the next:
 * arrays and `null` are not objects here, whatever `typeof` says.
 */
import type { JsonObject } from "@bufbuild/protobuf";

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
