/** What every HTTP caller shares (the A2A client, discovery, the platform clients): the public part. */
export * from "./auth.js";
export { CallTimeoutError } from "./call-scope.js";
export { BodyAbortedError, BodyTooLargeError } from "./capped-body.js";
export { customHeaders, isSafeCustomHeaderName } from "./custom-headers.js";
export type { ServiceCallOptions, ServiceClientOptions } from "./service-connection.js";
export { MissingServiceUrlError } from "./service-url.js";
