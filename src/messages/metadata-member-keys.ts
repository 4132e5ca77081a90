/**
 * The member keys of the NovaOS metadata part, read from the generated
 * `NovaOSMetadata` descriptor, so the proto is their one definition
 * (wire-keys.ts re-exports them beside the other wire keys).
 */
import { NovaOSMetadataSchema } from "../../gen/novaos/v1/metadata_pb.js";

const field = NovaOSMetadataSchema.field;

/** Member key of a HITL message in the metadata part. */
export const NOVAOS_HITL_KEY = field.hitl.jsonName;
/** Member key of a HITL response. */
export const NOVAOS_HITL_RESPONSE_KEY = field.hitlResponse.jsonName;
/** Member key of an error message. */
export const NOVAOS_ERROR_KEY = field.error.jsonName;
/** Member key of a progress message. */
export const NOVAOS_PROGRESS_KEY = field.progress.jsonName;
/** Member key of a connector OAuth pause. */
export const NOVAOS_PAUSE_OAUTH_KEY = field.oauthRequired.jsonName;
/** Member key of a write-confirmation pause. */
export const NOVAOS_PAUSE_WRITE_CONFIRMATION_KEY = field.writeConfirmationRequired.jsonName;
/** Member key of a skill's failure (`SkillResult.error`). */
export const NOVAOS_SKILL_ERROR_KEY = field.skillError.jsonName;
/** Member key of the tool events collected for a non-streaming run. */
export const NOVAOS_TOOL_EVENTS_KEY = field.toolEvents.jsonName;
