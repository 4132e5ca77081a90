/**
 * `@novaos/client-sdk/protocol`: the A2A protocol layer the bindings are
 * built on — the binding table, the error table and error wire forms, the
 * JSON-RPC envelope, ProtoJSON with REQUIRED-field checks, SSE encode and
 * capped decode, version and extension headers. For tools that speak a
 * binding themselves (a conformance checker, a proxy).
 *
 * NOT covered by semver: these names follow the bindings' implementation and
 * may change in any minor release. Everything an application needs is on
 * the other entries.
 */
export * from "../a2a/index.js";
