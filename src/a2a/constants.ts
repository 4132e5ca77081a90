/** Wire constants of the A2A bindings (spec §5.3, §8.2, §9, §11, §14). */

/** `AgentInterface.protocolBinding` values of the three standard bindings. */
export const PROTOCOL_BINDING_JSONRPC = "JSONRPC";
export const PROTOCOL_BINDING_HTTP_JSON = "HTTP+JSON";
export const PROTOCOL_BINDING_GRPC = "GRPC";
export type ProtocolBinding =
  | typeof PROTOCOL_BINDING_JSONRPC
  | typeof PROTOCOL_BINDING_HTTP_JSON
  | typeof PROTOCOL_BINDING_GRPC;

/** The well-known path of the public agent card (§8.2). */
export const AGENT_CARD_PATH = "/.well-known/agent-card.json";
/** Where the JSON-RPC binding is served, relative to the interface URL. */
export const A2A_JSONRPC_PATH = "/";

/** The A2A media type (§14.1); HTTP+JSON answers with it. */
export const A2A_JSON_MEDIA_TYPE = "application/a2a+json";
export const JSON_MEDIA_TYPE = "application/json";
export const SSE_MEDIA_TYPE = "text/event-stream";
