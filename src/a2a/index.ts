/** The A2A protocol layer: everything the bindings share, with no NovaOS knowledge. */
export * from "./artifacts.js";
export * from "./bindings.js";
export * from "./constants.js";
export * from "./error-table.js";
export * from "./error-wire.js";
export * from "./errors.js";
export * from "./extensions.js";
export * from "./extensions-header.js";
export * from "./headers.js";
export * from "./jsonrpc.js";
export * from "./protojson.js";
export * from "./required-fields.js";
export * from "./sse.js";
export * from "./stream-frame.js";
export * from "./task-state.js";
export * from "./timestamps.js";
export * from "./version.js";
