/** The calling side: A2A clients, their transports' options, interceptors and credentials. */
export * from "./a2a-version-interceptor.js";
export * from "./auth-interceptor.js";
export type { CallOptions, HeadersInput } from "./call-options.js";
export * from "./client.js";
export * from "./client-config.js";
export * from "./credential-service.js";
export {
  type AfterArgs,
  type AfterArgsOf,
  type BeforeArgs,
  type BeforeArgsOf,
  type CallResult,
  type ClientCallContext,
  type ClientCallInterceptor,
  createCallContext,
} from "./interceptors.js";
export { type SelectInterfaceOptions, selectInterface, tenantFromCard } from "./interface-selection.js";
export * from "./message-input.js";
export * from "./progress-stream.js";
export * from "./task-messages.js";
export type { StreamingMethod, UnaryMethod } from "./transport.js";
