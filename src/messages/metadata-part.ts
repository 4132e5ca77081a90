/**
 * The NovaOS metadata part: an A2A `data` part whose `metadata` tags it with
 * `NOVAOS_METADATA_PART_KEY: application/vnd.novaos.metadata+json` (and whose
 * `mediaType` says the same), so readers tell NovaOS control metadata apart
 * from an agent's ordinary structured output. Reading also accepts the two
 * legacy forms: an ACP part holding the payload as a JSON string under the
 * vendor content type, and a legacy message's `metadata` dictionary.
 */
import { isMessage, type JsonObject, toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { type Part, PartSchema } from "../../gen/a2a_pb.js";
import { NovaOSMetadataSchema } from "../../gen/novaos/v1/metadata_pb.js";
import { isJsonObject } from "../a2a/json-object.js";
import { dataPart } from "../a2a/parts.js";
import { isA2AShaped, sameMediaType } from "./a2a-shape.js";
import {
  NOVAOS_METADATA_MEDIA_TYPE,
  NOVAOS_METADATA_PART_KEY,
  NOVAOS_SKILL_METADATA_CONTENT_TYPE,
} from "./wire-keys.js";

/** A data part carrying `data`, tagged as NovaOS control metadata. */
export function novaosMetadataPart(data: JsonObject): Part {
  return taggedDataPart(data, NOVAOS_METADATA_MEDIA_TYPE);
}

/** A data part carrying a skill's own `SkillResult.metadata`, tagged with the skill-metadata marker. */
export function skillMetadataPart(data: JsonObject): Part {
  return taggedDataPart(data, NOVAOS_SKILL_METADATA_CONTENT_TYPE);
}

function taggedDataPart(data: JsonObject, mediaType: string): Part {
  return dataPart(data, { mediaType, metadata: { [NOVAOS_METADATA_PART_KEY]: mediaType } });
}

function isTagged(metadata: unknown, mediaType: unknown): boolean {
  return (
    sameMediaType(mediaType, NOVAOS_METADATA_MEDIA_TYPE) ||
    (isJsonObject(metadata) && sameMediaType(metadata[NOVAOS_METADATA_PART_KEY], NOVAOS_METADATA_MEDIA_TYPE))
  );
}

function parseJsonObject(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The NovaOS payload object a part carries, in any of the part forms, or undefined. */
function partPayload(part: unknown): JsonObject | undefined {
  if (isMessage(part, PartSchema)) {
    if (part.content.case !== "data" || !isTagged(part.metadata, part.mediaType)) return undefined;
    const data = toJson(ValueSchema, part.content.value);
    return isJsonObject(data) ? data : undefined;
  }
  if (!isJsonObject(part)) return undefined;
  if ("data" in part) {
    const tagged = isTagged(part.metadata, part.mediaType ?? part.media_type);
    return tagged && isJsonObject(part.data) ? part.data : undefined;
  }
  const contentType = part.content_type ?? part.contentType;
  if (sameMediaType(contentType, NOVAOS_METADATA_MEDIA_TYPE) && typeof part.content === "string") {
    return parseJsonObject(part.content);
  }
  return undefined;
}

const MEMBER_KEYS: readonly string[] = NovaOSMetadataSchema.fields.map((f) => f.jsonName);

/** The payloads of the tagged parts of anything with `parts` (message or artifact, generated or JSON). */
function partPayloads(message: unknown): JsonObject[] {
  const parts = isJsonObject(message) || isMessage(message) ? (message as { parts?: unknown }).parts : undefined;
  if (!Array.isArray(parts)) return [];
  return parts.map(partPayload).filter((p): p is JsonObject => p !== undefined);
}

/**
 * Every NovaOS payload object `message` carries, in order: its tagged parts
 * (A2A or ACP form), then, for a message that is not A2A-shaped, its legacy
 * `metadata` dictionary. Never throws: foreign input gives an empty list.
 */
export function novaosPayloads(message: unknown): JsonObject[] {
  try {
    const out = partPayloads(message);
    const legacy = isJsonObject(message) ? message.metadata : undefined;
    if (!isA2AShaped(message) && isJsonObject(legacy) && MEMBER_KEYS.some((k) => k in legacy)) out.push(legacy);
    return out;
  } catch {
    return [];
  }
}

/** Whether `message` has a NovaOS metadata part, in the A2A tagged-data form or the ACP vendor-content-type form. */
export function hasNovaOSMetadataPart(message: unknown): boolean {
  try {
    return partPayloads(message).length > 0;
  } catch {
    return false;
  }
}
