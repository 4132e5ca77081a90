/** The SDK's error hierarchy and its mapping functions. */
export {
  A2AError,
  A2AProtocolError,
  ContentTypeNotSupportedError,
  ExtendedAgentCardNotConfiguredError,
  ExtensionSupportRequiredError,
  InvalidAgentResponseError,
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from "../a2a/errors.js";
export * from "./error-mapping.js";
export * from "./method-unavailable.js";
export * from "./novaos-errors.js";
