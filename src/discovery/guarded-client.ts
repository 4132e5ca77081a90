/**
 * A `Client` for a URL that came from a remote document (an Agent Card
 * interface, an Agent DNS record): the URL is validated first, then the
 * client is built on transports that re-check every connection — a guarded
 * undici dispatcher for JSON-RPC and HTTP+JSON, a guarded `lookup` for gRPC —
 * so a later DNS answer or a redirect cannot take it somewhere else. The
 * guarded dispatcher belongs to the client and closes with it.
 */
import {
  PROTOCOL_BINDING_GRPC,
  PROTOCOL_BINDING_HTTP_JSON,
  PROTOCOL_BINDING_JSONRPC,
  type ProtocolBinding,
} from "../a2a/constants.js";
import { Client, type ClientOptions } from "../client/client.js";
import { type AgentUrlPolicy, type ValidatedAgentUrl, validateAgentUrl } from "./agent-url.js";
import { createGuardedFetch, createGuardedLookup } from "./guarded-fetch.js";

/** Options a guarded client accepts: everything but what the URL's source decides. */
export type GuardedClientOptions = Omit<ClientOptions, "baseUrl" | "binding" | "fetch">;

export interface GuardedClientTarget {
  /** The URL as published (a URL, or a bare `host:port` gRPC authority). */
  url: string;
  /** The binding spoken there; default: gRPC for `grpc(s)://` and bare authorities, else JSON-RPC. */
  binding?: ProtocolBinding | undefined;
}

/** The binding a URL implies when its source does not say. */
export function bindingForUrl(parsed: Pick<ValidatedAgentUrl, "scheme">): ProtocolBinding {
  return parsed.scheme === undefined || parsed.scheme.startsWith("grpc")
    ? PROTOCOL_BINDING_GRPC
    : PROTOCOL_BINDING_JSONRPC;
}

/**
 * The URL the transport dials: `grpcs://` and bare `host:port` become
 * `https://` (TLS unless told otherwise), `grpc://` becomes `http://`
 * (cleartext HTTP/2); http(s) URLs are kept.
 */
export function transportUrl(validated: ValidatedAgentUrl): string {
  const { scheme, url } = validated;
  if (scheme === "http" || scheme === "https") return url.trim();
  const rest = scheme === undefined ? url.trim() : url.trim().slice(scheme.length + 3);
  return `${scheme === "grpc" ? "http" : "https"}://${rest}`;
}

/**
 * Validates `target.url` against `policy` and builds a client on guarded
 * transports. Throws AgentUrlRejectedError before anything connects.
 */
export async function createGuardedClient(
  target: GuardedClientTarget,
  policy: AgentUrlPolicy,
  options: GuardedClientOptions = {},
): Promise<Client> {
  const validated = await validateAgentUrl(target.url, policy);
  const binding = target.binding ?? bindingForUrl(validated);
  const connectPolicy: AgentUrlPolicy = {
    allowedHostSuffixes: policy.allowedHostSuffixes,
    allowPrivateIps: policy.allowPrivateIps,
    resolve: policy.resolve,
  };
  const baseUrl = transportUrl(validated);
  if (binding === PROTOCOL_BINDING_JSONRPC || binding === PROTOCOL_BINDING_HTTP_JSON) {
    const guarded = createGuardedFetch(connectPolicy, { headersTimeout: 0, bodyTimeout: 0 });
    try {
      return new Client({ ...options, baseUrl, binding, fetch: guarded.fetch, onClose: guarded.close });
    } catch (error) {
      await guarded.close();
      throw error;
    }
  }
  return new Client({
    ...options,
    baseUrl,
    binding,
    grpcNodeOptions: { ...options.grpcNodeOptions, lookup: createGuardedLookup(connectPolicy) },
  });
}
