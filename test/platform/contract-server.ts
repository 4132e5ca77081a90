/**
 * A local platform service for contract tests, built from an OpenAPI file
 * with openapi-backend: every request the SDK sends is validated against the
 * file (path, query, headers, body, bearer security) before a handler sees
 * it, and every response a handler returns is validated against the same
 * file before it is sent. Any mismatch is recorded in `violations`, so a test
 * that ends with `expect(server.violations).toEqual([])` proves the client
 * and the spec agree. SSE responses are written by the handler through
 * `sse()`, which validates each event's JSON against a schema of the file.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { type Context, OpenAPIBackend } from "openapi-backend";
import { encodeSseEvent } from "../../src/a2a/sse.js";

export const OPENAPI_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "openapi");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

export interface JsonReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Writes an SSE response; each `data` is validated against `eventSchema` of the file. */
export interface SseWriter {
  event(data: unknown, fields?: { event?: string; id?: string }): void;
  /** Raw text (comments, malformed frames). */
  raw(text: string): void;
  /** Ends the response cleanly. */
  end(): void;
  /**
   * Drops the connection mid-response, as a crashed proxy would: what was
   * written still reaches the client, the chunked body is never terminated.
   */
  destroy(): void;
  readonly response: ServerResponse;
}

export interface HandlerContext {
  params: Record<string, string>;
  query: Record<string, unknown>;
  headers: IncomingMessage["headers"];
  body: unknown;
  /** Starts an SSE response (200, text/event-stream). */
  sse(): SseWriter;
}

export type OperationHandler = (ctx: HandlerContext) => JsonReply | undefined | Promise<JsonReply | undefined>;

export interface RecordedRequest {
  operationId: string;
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

export interface ContractServer {
  readonly url: string;
  readonly violations: string[];
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface ContractServerOptions {
  /** File name under openapi/. */
  spec: string;
  handlers: Record<string, OperationHandler>;
  /** The bearer token (or tokens) the security scheme accepts; requests without one get 401 (and are not violations). */
  bearerToken?: string | readonly string[];
  /** Schema name validating every SSE `data:` JSON of `event: message` frames. */
  eventSchema?: string;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The formats the specs use, checked as the platform checks them. */
function withFormats(ajv: Ajv): Ajv {
  ajv.addFormat("uuid", UUID);
  ajv.addFormat("uri", (value: string) => URL.canParse(value));
  ajv.addFormat("date-time", DATE_TIME);
  return ajv;
}

/** The spec `openapi/<spec>` loaded (references resolved) with the validators the contract server uses. */
export async function loadSpec(spec: string): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: join(OPENAPI_DIR, spec),
    // The document itself is checked by `make lint-openapi` (redocly understands 3.1; openapi-backend's
    // document validator only knows 3.0), so skip it; requests and responses are still validated.
    quick: true,
    strict: true,
    validate: true,
    ajvOpts: { strict: false },
    customizeAjv: withFormats,
  });
  await api.init();
  return api;
}

/** One Ajv per loaded spec: its schemas carry no `$id`, so they compile side by side. */
const validators = new WeakMap<OpenAPIBackend, Ajv>();

/**
 * A compiled validator for a schema of `api`'s components, or for a schema
 * nested in one (`"ToolCatalog", "properties", name, "properties", "result"`);
 * references are already resolved by `loadSpec`.
 */
export function schemaValidator(api: OpenAPIBackend, ...path: string[]) {
  let schema: unknown = api.definition.components?.schemas ?? {};
  for (const key of path) schema = (schema as Record<string, unknown>)[key];
  if (typeof schema !== "object" || schema === null) throw new Error(`no schema at ${path.join("/")}`);
  let ajv = validators.get(api);
  if (!ajv) {
    ajv = withFormats(new Ajv({ strict: false }));
    validators.set(api, ajv);
  }
  return ajv.compile(schema);
}

export async function startContractServer(options: ContractServerOptions): Promise<ContractServer> {
  const violations: string[] = [];
  const requests: RecordedRequest[] = [];
  const api = await loadSpec(options.spec);
  const eventValidator = options.eventSchema ? schemaValidator(api, options.eventSchema) : undefined;

  const send = (c: Context, res: ServerResponse, reply: JsonReply) => {
    const operationId = c.operation?.operationId ?? "?";
    if (c.operation) {
      const checked = api.validateResponse(reply.body, c.operation, reply.status);
      if (checked.errors?.length) {
        violations.push(`${operationId} ${reply.status} response: ${JSON.stringify(checked.errors)}`);
      }
      if (reply.headers) {
        const lower = Object.fromEntries(Object.entries(reply.headers).map(([k, v]) => [k.toLowerCase(), v]));
        const headerCheck = api.validateResponseHeaders(lower, c.operation, { statusCode: reply.status });
        if (headerCheck.errors?.length) {
          violations.push(`${operationId} ${reply.status} headers: ${JSON.stringify(headerCheck.errors)}`);
        }
      }
    }
    const headers: Record<string, string> = { ...reply.headers };
    if (reply.body !== undefined) headers["content-type"] = "application/json";
    res.writeHead(reply.status, headers);
    res.end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
  };

  const handlers: Record<
    string,
    (c: Context, req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void>
  > = {};
  for (const [operationId, handler] of Object.entries(options.handlers)) {
    handlers[operationId] = async (c, req, res, body) => {
      requests.push({ operationId, method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      let streaming = false;
      const ctx: HandlerContext = {
        params: c.request.params as Record<string, string>,
        query: c.request.query as Record<string, unknown>,
        headers: req.headers,
        body,
        sse: () => {
          streaming = true;
          res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
          res.flushHeaders();
          return {
            response: res,
            event(data, fields = {}) {
              if (eventValidator && (fields.event ?? "message") === "message" && !eventValidator(data)) {
                violations.push(
                  `${operationId} event ${JSON.stringify(data)}: ${JSON.stringify(eventValidator.errors)}`,
                );
              }
              res.write(encodeSseEvent(JSON.stringify(data), fields));
            },
            raw: (text) => void res.write(text),
            end: () => void res.end(),
            destroy: () => void res.socket?.end(),
          };
        },
      };
      const reply = await handler(ctx);
      if (!streaming) send(c, res, reply ?? { status: 500, body: { error: "no_reply" } });
    };
  }
  api.register({
    ...handlers,
    validationFail: async (c, req: IncomingMessage, res: ServerResponse) => {
      violations.push(
        `${c.operation?.operationId} ${req.method} ${req.url} request: ${JSON.stringify(c.validation.errors)}`,
      );
      send(c, res, { status: 400, body: { error: "contract_violation", message: "request does not match the spec" } });
    },
    notFound: async (_c, req: IncomingMessage, res: ServerResponse) => {
      violations.push(`no operation for ${req.method} ${req.url}`);
      res.writeHead(404).end();
    },
    unauthorizedHandler: async (c, _req: IncomingMessage, res: ServerResponse) => {
      send(c, res, { status: 401, body: { error: "unauthorized" }, headers: { "WWW-Authenticate": "Bearer" } });
    },
  });
  if (options.bearerToken !== undefined) {
    // Every spec names its bearer scheme after the token it takes (IAM, execution token): accept the tokens on each.
    const accepted = new Set([options.bearerToken].flat().map((token) => `Bearer ${token}`));
    const schemes = (api.definition.components?.securitySchemes ?? {}) as Record<string, { scheme?: string }>;
    for (const [name, scheme] of Object.entries(schemes)) {
      if (scheme.scheme !== "bearer") continue;
      api.registerSecurityHandler(name, (c) => accepted.has(String(c.request.headers.authorization)));
    }
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? "/", "http://localhost");
      await api.handleRequest(
        {
          method: req.method ?? "GET",
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers as Record<string, string | string[]>,
          body,
        },
        req,
        res,
        body,
      );
    })().catch((error: unknown) => {
      violations.push(`server error: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    violations,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
