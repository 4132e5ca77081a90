/**
 * A `Client` for a URL that came from a remote document (an Agent Card
 * interface, an Agent DNS record): the URL is validated first, then the
 * client is built on transports that re-check every connection — a guarded
 * undici dispatcher for JSON-RPC and HTTP+JSON, a guarded `lookup` for gRPC
 * (whose transport every guarded client has, loaded on its first gRPC call) —
 * so a later DNS answer or a redirect cannot take it somewhere else. The
 * guarded dispatcher belongs to the client and closes with it.
 */
import type { ProtocolBinding } from "../a2a/constants.js";
import { Client, type ClientOptions } from "../client/index.js";
import { type GrpcTransportOptions, grpcTransport } from "../grpc/grpc-transport-factory.js";
import { type AgentUrlPolicy, validateAgentUrl } from "../http/agent-url.js";
import { createGuardedFetch, createGuardedLookup } from "../http/guarded-fetch.js";

/** Options a guarded client accepts: everything but what the URL's source decides. */
export interface GuardedClientOptions extends Omit<ClientOptions, "baseUrl" | "binding" | "fetch"> {
  /** Passed to `http2.connect()` for gRPC (TLS options); the guarded `lookup` is added to them. */
  grpcNodeOptions?: GrpcTransportOptions["nodeOptions"];
}

export interface GuardedClientTarget {
  /** The URL as published: an http(s) URL, or for gRPC also `grpc(s)://` or a bare `host:port`. */
  url: string;
  /** The binding spoken there; default: the Client's inference from the URL (gRPC for a gRPC-only URL). */
  binding?: ProtocolBinding | undefined;
}

/**
 * Validates `target.url` against `policy` and builds a client on guarded
 * transports: a guarded fetch for the HTTP bindings (closed with the client)
 * and a guarded lookup for gRPC. How the URL is dialled (TLS or not, which
 * binding a bare `host:port` means) is the Client's rule, the same as for any
 * other client. Throws AgentUrlRejectedError before anything connects.
 */
export async function createGuardedClient(
  target: GuardedClientTarget,
  policy: AgentUrlPolicy,
  options: GuardedClientOptions = {},
): Promise<Client> {
  await validateAgentUrl(target.url, policy);
  const guarded = createGuardedFetch(policy, { headersTimeout: 0, bodyTimeout: 0 });
  try {
    const { grpcNodeOptions, ...clientOptions } = options;
    const guardedGrpc = grpcTransport({ nodeOptions: { ...grpcNodeOptions, lookup: createGuardedLookup(policy) } });
    return new Client({
      ...clientOptions,
      baseUrl: target.url.trim(),
      ...(target.binding ? { binding: target.binding } : {}),
      fetch: guarded.fetch,
      // A caller's own gRPC transport would dial unguarded: the guarded one replaces it.
      transports: [...(clientOptions.transports ?? []).filter((t) => t.binding !== guardedGrpc.binding), guardedGrpc],
      onClose: async () => {
        await guarded.close();
        await options.onClose?.();
      },
    });
  } catch (error) {
    await guarded.close();
    throw error;
  }
}
