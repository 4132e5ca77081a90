/**
 * @novaos/client-sdk — build and call NovaOS agents over A2A v1.0.1.
 *
 * The public API is listed here explicitly; everything else is internal.
 */

// The A2A data model and service descriptor, generated from the pinned a2a.proto.
export * from "../gen/a2a_pb.js";
// The A2A protocol layer: errors, JSON-RPC envelope, SSE, version and extension headers, task helpers.
export * from "./a2a/index.js";
