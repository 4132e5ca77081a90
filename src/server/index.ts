/** The agent side: serving A2A. */
export type { ServerCallContext } from "./call-context.js";
export type { HttpBinding, HttpReply, HttpRequestLike } from "./http-exchange.js";
export { BodyTooLargeError } from "./http-exchange.js";
export type { A2AHandlerMethod, A2ARequestHandler } from "./request-handler.js";
export { handlerMethodName } from "./request-handler.js";
export type { SecretCallInfo, SecretSource } from "./secret-source.js";
