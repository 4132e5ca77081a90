/**
 * Mounting an agent in an existing Node app, under a path: Express (or
 * Connect) middleware, and a Fastify plugin. Both hand the agent its own
 * paths and tell the served card where it is mounted (`originalUrl`), so the
 * card names `…/a2a/` as the interface URL.
 *
 * Clients look for a card at the ORIGIN's `/.well-known/agent-card.json`
 * (RFC 8615; @a2a-js/sdk does), not under the mount: both answer that path
 * too, with the mounted agent's card, unless `originCard: false`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { AGENT_CARD_PATH } from "../a2a/constants.js";
import type { AgentBuilder, ServeOptions } from "../server/agent-builder.js";
import type { NodeRequestListener } from "./node-adapter.js";
import { nodeHandler } from "./node-handler.js";

export interface MountOptions extends ServeOptions {
  /** Where the agent is mounted, e.g. `/a2a`. */
  readonly path: string;
  /** Also serve the card at the origin's `/.well-known/agent-card.json`. Default true. */
  readonly originCard?: boolean;
}

type MountedRequest = IncomingMessage & { originalUrl?: string };

/**
 * The agent's own URL for a request URL, or undefined when the request is
 * not the agent's: under the mount, the rest of the path; the origin's card
 * path, as is (served as if under the mount).
 */
function agentUrl(url: string, prefix: string, originCard: boolean): string | undefined {
  const path = url.split("?", 1)[0] as string;
  if (path === prefix || path.startsWith(`${prefix}/`)) return `/${url.slice(prefix.length).replace(/^\//, "")}`;
  return originCard && path === AGENT_CARD_PATH ? url : undefined;
}

/** Hands `req` to `listener` with the agent's URL in `url` and the mounted one in `originalUrl`. */
function serveMounted(
  listener: NodeRequestListener,
  req: MountedRequest,
  res: ServerResponse,
  prefix: string,
  inner: string,
  next?: (error?: unknown) => void,
): Promise<void> {
  const { url: ownUrl, originalUrl } = req;
  req.originalUrl = `${prefix}${inner}`;
  req.url = inner;
  return listener(
    req,
    res,
    next &&
      ((error?: unknown) => {
        req.url = ownUrl;
        req.originalUrl = originalUrl;
        next(error);
      }),
  );
}

/**
 * Middleware serving `agent` under `options.path`, for the app's root:
 * `app.use(mountAgent(agent, { path: "/a2a" }))`. A request that is not the
 * agent's goes on to the next middleware, its URL as it came.
 */
// biome-ignore lint/suspicious/noExplicitAny: any tools type serves alike.
export function mountAgent(agent: AgentBuilder<any>, options: MountOptions): NodeRequestListener {
  const listener = nodeHandler(agent, options);
  const prefix = options.path.replace(/\/+$/, "");
  const originCard = options.originCard ?? true;
  return (request, res, next) => {
    const req = request as MountedRequest;
    const inner = agentUrl(req.url ?? "/", prefix, originCard);
    if (inner !== undefined) return serveMounted(listener, req, res, prefix, inner, next);
    if (next) next();
    else res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
    return Promise.resolve();
  };
}

/** What the Fastify plugin uses of a Fastify instance (Fastify's own types are not a dependency). */
export interface FastifyScope {
  readonly prefix: string;
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    contentType: string,
    parser: (request: unknown, payload: unknown, done: (error: null) => void) => void,
  ): void;
  all(
    path: string,
    handler: (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): void }) => unknown,
  ): unknown;
}

/**
 * A Fastify plugin serving `agent` under `options.path`, registered at the
 * app's root: `await app.register(fastifyAgentPlugin(agent, { path: "/a2a" }))`.
 * The agent reads its own bodies (with its size cap), so Fastify's parsing is
 * off for the plugin's routes (Fastify scopes it to them), and the raw request
 * is handed over.
 */
// biome-ignore lint/suspicious/noExplicitAny: any tools type serves alike.
export function fastifyAgentPlugin(agent: AgentBuilder<any>, options: MountOptions) {
  const listener = nodeHandler(agent, options);
  const path = options.path.replace(/\/+$/, "");
  const originCard = options.originCard ?? true;
  return async (scope: FastifyScope): Promise<void> => {
    const prefix = `${scope.prefix}${path}`;
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
    const handle = (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): void }) => {
      reply.hijack();
      const raw = request.raw as MountedRequest;
      // Fastify routed it here, so it is the agent's: the card route answers at the origin or under the mount.
      const inner = agentUrl(raw.url ?? "/", prefix, true) ?? AGENT_CARD_PATH;
      return serveMounted(listener, raw, reply.raw, prefix, inner);
    };
    scope.all(path || "/", handle);
    scope.all(`${path}/*`, handle);
    if (originCard && path) scope.all(AGENT_CARD_PATH, handle);
  };
}
