/**
 * `@novaos/client-sdk/security`: PII masking, agent card signing, execution
 * tokens, sealed secrets and the pod keyring (jose and @noble load here only).
 */
export * from "./card-signing.js";
export * from "./pii.js";
export * from "./pod-keyring.js";
export * from "./recipient-key.js";
export * from "./sealed-envelope.js";
export * from "./sealed-user-context.js";
export * from "./token-errors.js";
export * from "./token-verifier.js";
export * from "./user-context-extension.js";
