/**
 * The Node entry point: one AgentBuilder served over all three A2A bindings.
 * JSON-RPC, HTTP+JSON and the agent card share one HTTP/1.1 port; gRPC (with
 * Connect and gRPC-Web) gets its own cleartext HTTP/2 port, since one
 * cleartext port cannot speak both HTTP/1.1 and HTTP/2. Every binding serves
 * the builder's one request handler, so they share tasks and stores.
 *
 * ```ts
 * const server = await listen(agent, { port: 8000, grpcPort: 50051, host: "0.0.0.0" });
 * ```
 */
import { once } from "node:events";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type AgentInterface, AgentInterfaceSchema } from "../../gen/a2a_pb.js";
import { PROTOCOL_BINDING_GRPC } from "../a2a/constants.js";
import { grpcTarget } from "../a2a/grpc-url.js";
import { A2A_PROTOCOL_VERSION } from "../a2a/version.js";
import type { AgentBuilder } from "../server/agent-builder.js";
import {
  AgentCardBinding,
  type AgentCardOptions,
  checkCardSecurityOptions,
  withoutTrailingSlash,
} from "../server/agent-card.js";
import { AuthNotConfiguredError, CHOOSE_AN_AUTH_MODE, isLoopbackHost } from "../server/auth/loopback.js";
import { DRAIN_GRACE_MS, settlesWithin } from "../server/drain.js";
import type { GrpcServer } from "../server/grpc/grpc-server.js";
import type { HttpBinding } from "../server/http-exchange.js";
import { recordServed } from "../server/served-interfaces.js";
import { HttpDrain } from "./http-drain.js";
import { createNodeListener } from "./node-adapter.js";

type InterfaceInit = MessageInitShape<typeof AgentInterfaceSchema>;

export interface ListenOptions {
  /** The HTTP port: JSON-RPC at `/`, the HTTP+JSON routes, the agent card. 0 picks a free port. */
  readonly port: number;
  /** The gRPC port (also Connect and gRPC-Web). Without it gRPC is not served. 0 picks a free port. */
  readonly grpcPort?: number;
  /**
   * The address both servers bind to. Default `127.0.0.1`; `0.0.0.0` or `::`
   * to accept remote callers, which an agent without an `auth` mode refuses.
   */
  readonly host?: string;
  /**
   * The URL callers reach the HTTP server at (behind a proxy or a load
   * balancer). The card names it (without a trailing slash), and its host
   * with `grpcPort` for gRPC. Default: the listening address
   * (`http://host:port`, `localhost` for a wildcard host).
   */
  readonly publicUrl?: string;
  /**
   * The address callers reach gRPC at, when it is not `publicUrl`'s host with
   * `grpcPort`: a bare `host:port`, or a `grpc(s)://` or `http(s)://` URL
   * (the card names it as `host:port`, decision B17).
   */
  readonly publicGrpcUrl?: string;
  /**
   * Name the URL each request came in on (its `Host`, `X-Forwarded-Proto`)
   * in the served card instead of `publicUrl`, for an agent reached under
   * several names; the card is then cached privately only. Default false.
   */
  readonly trustHostHeader?: boolean;
  /** The tenant every interface of the card carries; callers send it with each request (`/{tenant}/…`). */
  readonly tenant?: string;
  /** What the served card adds (description, provider…), or `false` to serve no card. Security is the auth mode's. */
  readonly agentCard?: Omit<AgentCardOptions, "supportedInterfaces"> | false;
  /** Also answer Connect and gRPC-Web on the gRPC port. Default true. */
  readonly connect?: boolean;
  readonly grpcWeb?: boolean;
}

export interface AgentCloseOptions {
  /**
   * Drain for up to this many milliseconds instead of cutting: stop
   * accepting (both ports close; a request on a connection still open is
   * refused with 503, a gRPC client gets a GOAWAY), let requests in flight
   * be answered and running skills finish, streams end on their last frame.
   * A skill still running at the deadline fails its task ("The agent shut
   * down before the skill finished"; its caller and its streams get that
   * FAILED task), and whatever is still open `DRAIN_GRACE_MS` later is cut.
   */
  readonly drainMs?: number;
}

/**
 * A running agent. `close()` stops both servers at once: streams in flight
 * detach and their tasks go on (a later listen serves them);
 * `close({ drainMs })` drains first, for a shutdown.
 */
export interface AgentServer extends AsyncDisposable {
  /**
   * The HTTP base URL, ending with "/" so paths can be appended: `publicUrl`,
   * else `http://host:port/` (`localhost` for a wildcard host). The card
   * names it without the trailing slash.
   */
  readonly url: string;
  /** The HTTP port this process listens on. */
  readonly port: number;
  /** The gRPC port this process listens on, when gRPC is served. */
  readonly grpcPort: number | undefined;
  /** The gRPC target (`host:port`) this process listens on, when gRPC is served. */
  readonly grpcTarget: string | undefined;
  /** The interfaces served, in the card's order of preference: JSON-RPC, HTTP+JSON, gRPC. */
  readonly interfaces: readonly AgentInterface[];
  close(options?: AgentCloseOptions): Promise<void>;
}

const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", ""]);

/** `host` as it goes into a URL authority (IPv6 in brackets). */
function authority(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/**
 * The card's interfaces for an HTTP base URL: one per served HTTP binding at
 * that URL (without a trailing slash), then gRPC at `grpcUrl`, else on the
 * same host name at `grpcPort`.
 */
function interfacesAt(
  httpBindings: readonly HttpBinding[],
  baseUrl: string,
  grpc: { readonly port: number; readonly url: string | undefined } | undefined,
  tenant: string,
): AgentInterface[] {
  const url = withoutTrailingSlash(baseUrl);
  const iface = (init: InterfaceInit) =>
    create(AgentInterfaceSchema, { protocolVersion: A2A_PROTOCOL_VERSION, tenant, ...init });
  const out = httpBindings.flatMap((b) =>
    b.protocolBinding ? [iface({ url, protocolBinding: b.protocolBinding })] : [],
  );
  if (grpc !== undefined) {
    out.push(
      iface({
        url: grpc.url ?? authority(new URL(url).hostname.replace(/^\[|\]$/g, ""), grpc.port),
        protocolBinding: PROTOCOL_BINDING_GRPC,
      }),
    );
  }
  return out;
}

/** Serves `agent` over JSON-RPC, HTTP+JSON and, with `grpcPort`, gRPC. */
// biome-ignore lint/suspicious/noExplicitAny: any tools type serves alike.
export async function listen(agent: AgentBuilder<any>, options: ListenOptions): Promise<AgentServer> {
  const host = options.host ?? "127.0.0.1";
  if (agent.auth === undefined && !isLoopbackHost(host)) {
    throw new AuthNotConfiguredError(
      `Refusing to listen on ${host}: this agent has no authentication configured, so it serves its own machine only (listen on 127.0.0.1, or ${CHOOSE_AN_AUTH_MODE})`,
    );
  }
  if (options.agentCard) checkCardSecurityOptions(options.agentCard, agent.auth);
  const tenant = options.tenant ?? "";
  const publicUrl = options.publicUrl?.replace(/\/?$/, "/");
  // Checked before anything listens: a gRPC address the card could not name is the caller's mistake.
  const publicGrpcUrl = options.publicGrpcUrl === undefined ? undefined : grpcTarget(options.publicGrpcUrl);
  const protocols = agent.httpBindings({ agentCard: false });
  const grpc: GrpcServer | undefined =
    options.grpcPort === undefined
      ? undefined
      : // connect-node loads only for an agent that serves gRPC.
        await (await import("../server/grpc/grpc-server.js")).listenGrpc(agent.requestHandler(), {
          port: options.grpcPort,
          host,
          logger: agent.logger,
          maxRequestValues: agent.maxRequestValues,
          ...(options.connect === undefined ? {} : { connect: options.connect }),
          ...(options.grpcWeb === undefined ? {} : { grpcWeb: options.grpcWeb }),
        });

  const grpcInterface = grpc ? { port: grpc.port, url: publicGrpcUrl } : undefined;
  let bindings: readonly HttpBinding[] = protocols;
  const server = http.createServer();
  // The peer's address is read as the connection opens, while the socket knows it (it then stays known): a client
  // that resets mid-upload must go away quietly, not be authenticated as a caller from nowhere and logged at warn.
  server.on("connection", (socket) => socket.remoteAddress);
  const drain = new HttpDrain(server);
  server.on("request", drain.listener(createNodeListener(() => bindings, { logger: agent.logger })));
  server.listen(options.port, host);
  try {
    await once(server, "listening");
  } catch (error) {
    await grpc?.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const advertised = WILDCARD_HOSTS.has(host) ? "localhost" : host;
  const url = publicUrl ?? `http://${authority(advertised, port)}/`;
  // Set before this turn ends, so before the first request: the card names the configured URL (else the
  // listening address), or with trustHostHeader the URL each request came in on.
  if (options.agentCard !== false) {
    const card = new AgentCardBinding(
      (o) => agent.toAgentCard(o),
      options.agentCard ?? {},
      (baseUrl) => interfacesAt(protocols, baseUrl, grpcInterface, tenant),
      { publicUrl: url, trustHostHeader: options.trustHostHeader },
      agent.logger,
    );
    bindings = [card, ...protocols];
  }

  let closing: Promise<void> | undefined;
  let forget = (): void => undefined;
  const running: AgentServer = {
    url,
    port,
    grpcPort: grpc?.port,
    grpcTarget: grpc ? authority(advertised, grpc.port) : undefined,
    interfaces: interfacesAt(protocols, url, grpcInterface, tenant),
    close: (closeOptions = {}) => {
      closing ??= (async () => {
        forget();
        const closed = once(server, "close");
        const { drainMs } = closeOptions;
        if (drainMs === undefined) {
          server.close();
          // Open streams would hold the server forever: they detach, their tasks go on.
          server.closeAllConnections();
          await Promise.all([closed, grpc?.close()]);
          return;
        }
        drain.start();
        const grpcClosed = grpc?.close({ drainMs: drainMs + DRAIN_GRACE_MS });
        const handler = agent.requestHandler();
        if (!(await settlesWithin(Promise.all([handler.whenIdle(), closed]), drainMs))) {
          // The deadline: skills still running fail their tasks, and their callers get that answer.
          const answered = handler.stopRunning().then(() => closed);
          if (!(await settlesWithin(answered, DRAIN_GRACE_MS))) server.closeAllConnections();
        }
        await Promise.all([closed, grpcClosed]);
      })();
      return closing;
    },
    [Symbol.asyncDispose]: () => running.close(),
  };
  forget = recordServed(agent, running);
  // One line per binding; the URL is bound, not logged, so the PII masker leaves its address alone.
  for (const served of running.interfaces) {
    agent.logger.child({ protocol_binding: served.protocolBinding, url: served.url }).info("listening");
  }
  return running;
}
