/**
 * `SpecRouter`: one local platform service, served on its own localhost
 * port from one OpenAPI document of `openapi/`. Each request is matched to
 * its operation by path template and method, checked against the spec
 * (path, query and header parameters, the JSON body) before its handler
 * runs, and each reply is checked against the spec's response for its
 * status before it is sent — every SSE event too, against the response's
 * `contentSchema`. A mismatch is a `SpecViolationError` naming the
 * operation: recorded in `violations`, reported to `onViolation`, and
 * answered 400 (the caller's request) or 500 (the emulator's own reply).
 *
 * Security schemes are not enforced (the local platform has no IAM); the
 * services that need a caller's identity read the execution token
 * themselves. Routes outside the spec (the JWKS, the local registration
 * route) are `extraRoutes`, served as they are; an operation the emulator
 * does not implement answers 501.
 */
import { once } from "node:events";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { encodeSseEvent } from "../a2a/sse.js";
import { BodyTooLargeError, readNodeBody } from "../http/capped-body.js";
import { isObject, refSegments, SpecValidator } from "./spec-validator.js";
import { SpecViolationError } from "./spec-violation.js";

/** Request bodies above this are refused (413) before parsing, as the platform's services do. */
export const MAX_REQUEST_BODY_BYTES = 10 * 1024 * 1024;

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

export interface OperationCall {
  readonly operationId: string;
  /** Path parameters, percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** Query parameters, numbers and booleans read as the spec types them. */
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
  /** Aborted when the caller goes away. */
  readonly signal: AbortSignal;
}

export interface JsonReply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface SseFrame {
  /** The event's JSON, checked against the response's `contentSchema`. */
  readonly data: unknown;
  readonly id?: string;
  readonly event?: string;
  /** Sent as the data instead, as it is and unchecked: a literal the spec names (OpenAI's closing `[DONE]`). */
  readonly literal?: string;
}

/** A 200 `text/event-stream` reply: the frames, written as they come until the iterable ends. */
export interface EventStreamReply {
  readonly events: AsyncIterable<SseFrame>;
}

export type OperationReply = JsonReply | EventStreamReply;
export type OperationHandler = (call: OperationCall) => OperationReply | Promise<OperationReply>;

/** A route the spec does not describe, served without checks (the JWKS, local registration). */
export type ExtraRoute = (call: Omit<OperationCall, "operationId" | "params">) => JsonReply | Promise<JsonReply>;

/** A handler's refusal, answered as the platform's `{error, message}` body with `status`. */
export class PlatformReplyError extends Error {
  override readonly name = "PlatformReplyError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface SpecRouterOptions {
  /** The spec's file name under `openapi/`, without `.yaml` (for messages). */
  readonly name: string;
  readonly document: { readonly [key: string]: unknown };
  /** The other specs, by name, for references between specs. */
  readonly siblings?: Readonly<Record<string, { readonly [key: string]: unknown }>>;
  /** One handler per operationId the service implements; an operation without one answers 501. */
  readonly handlers: Readonly<Record<string, OperationHandler>>;
  /** `"GET /.well-known/jwks.json"` → route. */
  readonly extraRoutes?: Readonly<Record<string, ExtraRoute>>;
  readonly onViolation?: (error: SpecViolationError) => void;
  /** The 400 body for a request that breaks the spec, in the service's error form. Default `{error, message}`. */
  readonly invalidRequestBody?: (error: SpecViolationError) => unknown;
}

interface Operation {
  readonly id: string;
  readonly method: string;
  readonly pathKey: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly definition: { readonly [key: string]: unknown };
  readonly parameters: readonly { readonly [key: string]: unknown }[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `/agents/{name}` → a matcher and the parameter names in order. */
function compilePath(pathKey: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = pathKey
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return escapeRegExp(part);
      names.push(name);
      return "([^/]+)";
    })
    .join("");
  return { pattern: new RegExp(`^${source}$`), names };
}

/** A query or header string read as its schema's scalar type, so `page_size=5` checks as the integer 5. */
function typed(value: string, schema: unknown): unknown {
  const type = isObject(schema) ? schema.type : undefined;
  if ((type === "integer" || type === "number") && value.trim() !== "" && Number.isFinite(Number(value))) {
    return Number(value);
  }
  if (type === "boolean" && (value === "true" || value === "false")) return value === "true";
  return value;
}

function isEventStream(reply: OperationReply): reply is EventStreamReply {
  return "events" in reply;
}

export class SpecRouter {
  readonly name: string;
  readonly validator: SpecValidator;
  /** Every violation seen, in order. */
  readonly violations: SpecViolationError[] = [];
  readonly #operations: Operation[] = [];
  readonly #options: SpecRouterOptions;

  constructor(options: SpecRouterOptions) {
    this.name = options.name;
    this.#options = options;
    this.validator = new SpecValidator(options.name, options.document, options.siblings);
    const paths = isObject(options.document.paths) ? options.document.paths : {};
    for (const [pathKey, item] of Object.entries(paths)) {
      if (!isObject(item)) continue;
      const shared = Array.isArray(item.parameters) ? item.parameters : [];
      for (const method of METHODS) {
        const definition = item[method];
        if (!isObject(definition) || typeof definition.operationId !== "string") continue;
        const own = Array.isArray(definition.parameters) ? definition.parameters : [];
        const parameters = [...shared, ...own].flatMap((p: unknown) => {
          const resolved = this.validator.resolve(p);
          return resolved ? [resolved] : [];
        });
        this.#operations.push({
          id: definition.operationId,
          method: method.toUpperCase(),
          pathKey,
          ...compilePath(pathKey),
          definition,
          parameters,
        });
      }
    }
  }

  /** The operationIds of the spec. */
  get operationIds(): string[] {
    return this.#operations.map((operation) => operation.id);
  }

  /** Serves the router on `host:port` (0 picks a free port). */
  async listen(port = 0, host = "127.0.0.1"): Promise<RouterServer> {
    const server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) writeJson(response, 500, { error: "internal", message: String(error) });
        else response.destroy();
      });
    });
    server.listen(port, host);
    await once(server, "listening");
    const address = server.address() as AddressInfo;
    const authority = host.includes(":") ? `[${host}]` : host;
    return { server, url: `http://${authority}:${address.port}`, port: address.port, close: () => closeServer(server) };
  }

  /** One exchange on `node:http`. */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://localhost");
    const method = request.method ?? "GET";
    const controller = new AbortController();
    response.on("close", () => controller.abort());

    let raw: Uint8Array;
    try {
      const declared = Number(request.headers["content-length"]);
      raw = await readNodeBody(request, {
        maxBytes: MAX_REQUEST_BODY_BYTES,
        declaredLength: Number.isFinite(declared) ? declared : undefined,
      });
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        response.setHeader("connection", "close");
        writeJson(response, 413, { error: "payload_too_large", message: error.message });
        return;
      }
      throw error;
    }
    const text = Buffer.from(raw).toString("utf8");

    const extra = this.#options.extraRoutes?.[`${method} ${url.pathname}`];
    if (extra) {
      const reply = await extra({
        query: Object.fromEntries(url.searchParams),
        headers: request.headers,
        body: parseJson(text),
        signal: controller.signal,
      });
      writeJson(response, reply.status, reply.body, reply.headers);
      return;
    }

    const matched = this.#match(method, url.pathname);
    if (!matched) {
      const pathKnown = this.#operations.some((operation) => operation.pattern.test(url.pathname));
      const status = pathKnown ? 405 : 404;
      this.#violation(`${method} ${url.pathname}`, "request", [
        pathKnown ? "the spec has no such method on this path" : "the spec has no such path",
      ]);
      writeJson(response, status, { error: pathKnown ? "method_not_allowed" : "not_found" });
      return;
    }
    const { operation, params } = matched;
    const { query, problems } = this.#checkRequest(operation, params, url.searchParams, request.headers, text);
    if (problems.length > 0) {
      const error = this.#violation(operation.id, "request", problems);
      const body = this.#options.invalidRequestBody?.(error) ?? { error: "invalid_request", message: error.message };
      this.#reply(response, operation, { status: 400, body });
      return;
    }
    const handler = this.#options.handlers[operation.id];
    if (!handler) {
      writeJson(response, 501, { error: "not_implemented", message: `${operation.id} is not emulated locally` });
      return;
    }
    let reply: OperationReply;
    try {
      reply = await handler({
        operationId: operation.id,
        params,
        query,
        headers: request.headers,
        body: text === "" ? undefined : JSON.parse(text),
        signal: controller.signal,
      });
    } catch (error) {
      if (!(error instanceof PlatformReplyError)) throw error;
      reply = { status: error.status, body: { error: error.code, message: error.message } };
    }
    if (isEventStream(reply)) await this.#stream(response, operation, reply, controller.signal);
    else this.#reply(response, operation, reply);
  }

  #match(method: string, pathname: string): { operation: Operation; params: Record<string, string> } | undefined {
    for (const operation of this.#operations) {
      if (operation.method !== method) continue;
      const found = operation.pattern.exec(pathname);
      if (!found) continue;
      const params: Record<string, string> = {};
      try {
        operation.names.forEach((name, index) => {
          params[name] = decodeURIComponent(found[index + 1] as string);
        });
      } catch {
        continue;
      }
      return { operation, params };
    }
    return undefined;
  }

  #checkRequest(
    operation: Operation,
    params: Record<string, string>,
    search: URLSearchParams,
    headers: IncomingHttpHeaders,
    text: string,
  ): { query: Record<string, unknown>; problems: string[] } {
    const problems: string[] = [];
    const query: Record<string, unknown> = {};
    for (const parameter of operation.parameters) {
      const name = String(parameter.name);
      const where = parameter.in;
      let value: string | undefined;
      if (where === "path") value = params[name];
      else if (where === "query") value = search.get(name) ?? undefined;
      else if (where === "header") {
        const header = headers[name.toLowerCase()];
        value = Array.isArray(header) ? header.join(", ") : header;
      } else continue;
      if (value === undefined) {
        if (parameter.required === true) problems.push(`${where} parameter '${name}' is required`);
        continue;
      }
      const checked = typed(value, parameter.schema);
      if (where === "query") query[name] = checked;
      if (parameter.schema !== undefined) {
        const found = this.validator.checkValue(parameter.schema, checked);
        problems.push(...found.map((line) => `${where} parameter '${name}': ${line}`));
      }
    }
    const body = this.validator.resolve(operation.definition.requestBody);
    if (body) {
      const content = isObject(body.content) ? body.content : {};
      const json = content["application/json"];
      if (text === "") {
        if (body.required === true) problems.push("the request body is required");
      } else if (!isObject(json)) {
        problems.push("the operation takes no JSON body");
      } else {
        const value = parseJson(text);
        if (value === NOT_JSON) problems.push("the request body is not JSON");
        else {
          const declared = operation.definition.requestBody;
          const base =
            isObject(declared) && typeof declared.$ref === "string"
              ? refSegments(declared.$ref)
              : ["paths", operation.pathKey, operation.method.toLowerCase(), "requestBody"];
          const schemaPath = [...base, "content", "application/json", "schema"];
          problems.push(...this.validator.check(schemaPath, value).map((line) => `body ${line}`));
        }
      }
    } else if (text !== "") {
      problems.push("the operation takes no request body");
    }
    return { query, problems };
  }

  /** The schema segments of the JSON response of `operation` with `status`, or undefined when it has no JSON body. */
  #responseSchema(operation: Operation, status: number): { segments: string[] | undefined; known: boolean } {
    const responses = isObject(operation.definition.responses) ? operation.definition.responses : {};
    const key = String(status) in responses ? String(status) : "default" in responses ? "default" : undefined;
    if (key === undefined) return { segments: undefined, known: false };
    const entry = responses[key];
    const base =
      isObject(entry) && typeof entry.$ref === "string"
        ? refSegments(entry.$ref)
        : ["paths", operation.pathKey, operation.method.toLowerCase(), "responses", key];
    const resolved = this.validator.resolve(entry);
    const content = resolved && isObject(resolved.content) ? resolved.content : {};
    const json = content["application/json"];
    const segments =
      isObject(json) && json.schema !== undefined ? [...base, "content", "application/json", "schema"] : undefined;
    return { segments, known: true };
  }

  #reply(response: ServerResponse, operation: Operation, reply: JsonReply): void {
    const { segments, known } = this.#responseSchema(operation, reply.status);
    const problems = !known
      ? [`status ${reply.status} is not a response of the spec`]
      : segments && reply.body !== undefined
        ? this.validator.check(segments, reply.body)
        : [];
    if (problems.length > 0) {
      const error = this.#violation(operation.id, "response", problems);
      writeJson(response, 500, { error: "spec_violation", message: error.message });
      return;
    }
    writeJson(response, reply.status, reply.body, reply.headers);
  }

  async #stream(response: ServerResponse, operation: Operation, reply: EventStreamReply, signal: AbortSignal) {
    const segments = [
      "paths",
      operation.pathKey,
      operation.method.toLowerCase(),
      "responses",
      "200",
      "content",
      "text/event-stream",
      "schema",
      "contentSchema",
    ];
    const hasSchema = this.validator.has(segments);
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    response.flushHeaders();
    for await (const frame of reply.events) {
      if (signal.aborted) break;
      if (frame.literal !== undefined) {
        response.write(encodeSseEvent(frame.literal, { id: frame.id, event: frame.event }));
        continue;
      }
      if (hasSchema && (frame.event ?? "message") === "message") {
        const problems = this.validator.check(segments, frame.data);
        if (problems.length > 0) {
          this.#violation(operation.id, "event", problems);
          response.destroy();
          return;
        }
      }
      response.write(encodeSseEvent(JSON.stringify(frame.data), { id: frame.id, event: frame.event }));
    }
    response.end();
  }

  #violation(operationId: string, direction: "request" | "response" | "event", problems: string[]) {
    const error = new SpecViolationError(this.name, operationId, direction, problems);
    this.violations.push(error);
    this.#options.onViolation?.(error);
    return error;
  }
}

export interface RouterServer {
  readonly server: Server;
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const NOT_JSON = Symbol("not JSON");

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

function writeJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
) {
  response.writeHead(status, { ...headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  server.close();
  if (server.listening) await once(server, "close");
}
