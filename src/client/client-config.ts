/**
 * Per-client defaults, layered under each call's own options (the
 * reference's `ClientConfig`).
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { TaskPushNotificationConfigSchema } from "../../gen/a2a_pb.js";
import {
  PROTOCOL_BINDING_GRPC,
  PROTOCOL_BINDING_HTTP_JSON,
  PROTOCOL_BINDING_JSONRPC,
  type ProtocolBinding,
} from "../a2a/constants.js";

export interface ClientConfig {
  /**
   * Whether `sendStreamingMessage` may open a stream. False — or a card that
   * does not declare `capabilities.streaming` — makes it send one
   * `sendMessage` and yield its result as the only frame. Default true.
   */
  streaming?: boolean;
  /**
   * Prefer polling to waiting: `sendMessage` defaults to `returnImmediately`
   * (follow up with `getTask` or `subscribeToTask`). Default false.
   */
  polling?: boolean;
  /** Sent as `configuration.acceptedOutputModes` unless a call passes its own (a non-empty list replaces this). */
  acceptedOutputModes?: readonly string[];
  /** Sent as `configuration.taskPushNotificationConfig` unless a call passes its own. */
  pushNotificationConfig?: MessageInitShape<typeof TaskPushNotificationConfigSchema>;
  /** The bindings this client may use, most preferred first. Default: JSON-RPC, HTTP+JSON, gRPC. */
  preferredBindings?: readonly ProtocolBinding[];
  /** Choose the interface by this client's order rather than the card's. Default false. */
  useClientPreference?: boolean;
}

export const DEFAULT_PREFERRED_BINDINGS: readonly ProtocolBinding[] = [
  PROTOCOL_BINDING_JSONRPC,
  PROTOCOL_BINDING_HTTP_JSON,
  PROTOCOL_BINDING_GRPC,
];

export type ResolvedClientConfig = Required<Omit<ClientConfig, "pushNotificationConfig">> &
  Pick<ClientConfig, "pushNotificationConfig">;

export function resolveClientConfig(config: ClientConfig = {}): ResolvedClientConfig {
  return {
    streaming: config.streaming ?? true,
    polling: config.polling ?? false,
    acceptedOutputModes: [...(config.acceptedOutputModes ?? [])],
    pushNotificationConfig: config.pushNotificationConfig,
    preferredBindings: [...(config.preferredBindings ?? DEFAULT_PREFERRED_BINDINGS)],
    useClientPreference: config.useClientPreference ?? false,
  };
}
