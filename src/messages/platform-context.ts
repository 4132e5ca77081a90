/**
 * The platform context of a run (`PlatformContext`), carried in A2A
 * `metadata` maps under `NOVAOS_CONTEXT_METADATA_KEY`, since SendMessage has
 * no field for it. Agents read it from the request's and the message's
 * metadata; the platform (and tests) write it with `platformContextMetadata`.
 */
import { create, fromJson, type JsonObject, type MessageInitShape, mergeFromJson, toJson } from "@bufbuild/protobuf";
import { type PlatformContext, PlatformContextSchema } from "../../gen/novaos/v1/platform_context_pb.js";
import { isJsonObject } from "../a2a/json-object.js";
import { NOVAOS_CONTEXT_METADATA_KEY } from "./wire-keys.js";

export type PlatformContextInit = MessageInitShape<typeof PlatformContextSchema>;

/** A metadata map entry carrying `context`. */
export function platformContextMetadata(context: PlatformContextInit): JsonObject {
  return { [NOVAOS_CONTEXT_METADATA_KEY]: toJson(PlatformContextSchema, create(PlatformContextSchema, context)) };
}

/**
 * The platform context from metadata maps, merged in order: fields of a later
 * map win (pass the request's metadata, then the message's). A map without the
 * key, or whose entry does not decode, adds nothing; no context at all gives
 * undefined. Unknown fields (credentials included) are dropped.
 */
export function readPlatformContext(...metadata: (JsonObject | undefined)[]): PlatformContext | undefined {
  let context: PlatformContext | undefined;
  for (const map of metadata) {
    const entry = map?.[NOVAOS_CONTEXT_METADATA_KEY];
    if (!isJsonObject(entry)) continue;
    try {
      // Decoded on its own first, so a malformed entry cannot leave a half-merged context behind.
      fromJson(PlatformContextSchema, entry, { ignoreUnknownFields: true });
      context = mergeFromJson(PlatformContextSchema, context ?? create(PlatformContextSchema), entry, {
        ignoreUnknownFields: true,
      });
    } catch {
      // A malformed entry is skipped, not fatal: the run goes on without it.
    }
  }
  return context;
}

export type { PlatformContext };
