/**
 * The NovaOS conventions on the A2A wire: the media type that tags NovaOS
 * control metadata, the part and message metadata keys, and the member keys
 * of the metadata part. The member keys are read from the generated
 * `NovaOSMetadata` descriptor, so the proto is their one definition.
 */
/** The vendor media type of NovaOS control metadata (HITL, pauses, errors, progress, tool events). */
export const NOVAOS_METADATA_MEDIA_TYPE = "application/vnd.novaos.metadata+json";

/** The platform marker (the reference's name for the same media type). */
export const NOVAOS_METADATA_CONTENT_TYPE = NOVAOS_METADATA_MEDIA_TYPE;

/**
 * The marker of the part that carries a skill's own `SkillResult.metadata`:
 * distinct from the platform marker, so the platform surfaces it to callers as
 * run data instead of draining it as control metadata.
 */
export const NOVAOS_SKILL_METADATA_CONTENT_TYPE = "application/vnd.novaos.skill-metadata+json";

/**
 * The `Part.metadata` key whose value tags a data part: the A2A successor of
 * the ACP part's `content_type` field, with the same values.
 */
export const NOVAOS_METADATA_PART_KEY = "content_type";

/** The message `metadata` key naming the skill to run: the A2A model has no field for it. */
export const SKILL_ID_METADATA_KEY = "skillId";

/** The message `metadata` key carrying a `SimpleMessage`'s author (`{ name, role?, metadata? }`): A2A has no field for it. */
export const AUTHOR_METADATA_KEY = "author";

/** The request / message `metadata` key under which the platform puts its `PlatformContext`. */
export const NOVAOS_CONTEXT_METADATA_KEY = "novaosContext";

/** The media type a text part has when it says none (and that builders therefore leave unset). */
export const DEFAULT_MEDIA_TYPE = "text/plain";

// The member keys of the metadata part, read from its descriptor: in a file of their own, so code that needs
// only the keys above (a bundler splits code by file) does not bring the descriptor and protobuf-es's reflection.
export * from "./metadata-member-keys.js";
