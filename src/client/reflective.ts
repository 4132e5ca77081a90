/**
 * What the calling side needs protobuf-es's reflection for: the reflective
 * ProtoJSON path (taken when a generated codec bails out on an unusual
 * request or reply, so its results and errors are protobuf-es's own), and
 * messages built from their fields (`create`). `Client` loads this module
 * with `import()` the first time a call needs it (codecs.ts), so a bundle of
 * `Client` does not load the reflection (and the descriptors it decodes)
 * before then.
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type TaskPushNotificationConfig, TaskPushNotificationConfigSchema } from "../../gen/a2a_pb.js";
import { type A2AMethodName, a2aServiceBindings } from "../a2a/bindings.js";
import { decodeMessage, encodeMessage } from "../a2a/protojson.js";

export { createMessageWithHitlResponse } from "../messages/message-builder.js";
export { toMessage } from "./message-input.js";

/** A request as wire JSON, the reflective way (`encodeMessage`). */
export function encodeRequest(method: A2AMethodName, request: unknown): unknown {
  return encodeMessage(a2aServiceBindings[method].input, request as never);
}

/** A reply read from wire JSON, the reflective way (`decodeMessage`, leniently: a reply). */
export function decodeReply(method: A2AMethodName, json: unknown): unknown {
  return decodeMessage(a2aServiceBindings[method].output, json, { validateRequired: false });
}

/** A push configuration from its fields. */
export function pushConfig(
  init: MessageInitShape<typeof TaskPushNotificationConfigSchema>,
): TaskPushNotificationConfig {
  return create(TaskPushNotificationConfigSchema, init);
}
