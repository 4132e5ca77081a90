/**
 * `ObservabilityClient`: a run's event history and debug control of a live
 * run, on the NovaOS Gateway's REST routes (openapi/observability.yaml),
 * called directly rather than through the MCP Gateway.
 *
 *   await using obs = new ObservabilityClient({ auth: new BearerTokenAuth(token) }); // NOVAOS_GATEWAY_URL
 *   for await (const event of obs.runEvents(runId)) console.log(event.sequence, event.type);
 *   await obs.sendDebugControl(runId, "pause");
 *
 * The token may be a service account's or a user's. The service route
 * answers 403 to a user token; with `route: "auto"` (the default) the client
 * tries it first, falls back to the user route on that 403, and remembers
 * the route that answered for its later `auto` calls.
 *
 * Event reads are retried after a transient failure (429, 502, 503, 504, a
 * lost connection); a debug action never is (`step` would advance twice).
 * 401 and 403 are NovaOSAuthenticationError, 404 (no such run, no live debug
 * session) and 409 (an action that does not apply now) NovaOSServerError
 * with the status in `statusCode`.
 */
import type { components, paths } from "../../gen/openapi/observability.js";
import { NovaOSAuthenticationError, NovaOSServerError } from "../errors/novaos-errors.js";
import { integer, oneOf, optionalObject, text } from "../http/argument-checks.js";
import { objectAnswer, optionalString, stringField } from "../http/json-fields.js";
import { platformHttpError } from "../http/platform-http-error.js";
import { ServiceClient } from "../http/service-client.js";
import type { ServiceCallOptions, ServiceClientOptions } from "../http/service-connection.js";
import { type RunEvent, RunEventsPage } from "./run-events.js";

/** The environment variable naming the NovaOS Gateway. */
export const NOVAOS_GATEWAY_URL_ENV = "NOVAOS_GATEWAY_URL";
/** The service route's largest page. */
export const MAX_RUN_EVENTS_LIMIT = 1000;

/** `service` (a service-account token), `user` (a user's own runs), or `auto`: the service route, else the user route. */
export type EventsRoute = "service" | "user" | "auto";
export type DebugAction = components["schemas"]["DebugAction"];
export const DEBUG_ACTIONS: readonly DebugAction[] = ["pause", "resume", "step", "abort"];

const SERVICE = { name: "NovaOS Gateway", urlVariable: NOVAOS_GATEWAY_URL_ENV } as const;
const DECISIONS: ReadonlySet<number> = new Set([404, 409]);
const SERVICE_ROUTE = "/api/v1/service/runs/{runId}/events";
const USER_ROUTE = "/api/v1/runs/{runId}/events";
const DEBUG_ROUTE = "/api/v1/runs/{runId}/debug/{action}";

export interface RunEventsOptions extends ServiceCallOptions {
  /** The `nextCursor` of the previous page; omitted, the first page. */
  after?: string | undefined;
  /** The most events per page, 1–1000: honoured by the service route only (the user route's page size is fixed). */
  limit?: number | undefined;
  /** Default `auto`. */
  route?: EventsRoute | undefined;
}

export interface DebugControlOptions extends ServiceCallOptions {
  /** Attached to the action in the session's history. */
  metadata?: Record<string, unknown> | undefined;
}

export interface DebugControlResult {
  sessionId: string;
  runId: string;
  /** The session's state after the action: `running`, `paused`, `aborted` or `completed`. */
  breakpointState: string;
  action: string;
}

export class ObservabilityClient extends ServiceClient<paths> {
  /** The route that answered an `auto` call, used by the later ones. */
  #route: "service" | "user" | undefined;

  constructor(options: ServiceClientOptions = {}) {
    super(SERVICE, options);
  }

  /** The route `auto` calls use, once one answered. */
  get resolvedRoute(): "service" | "user" | undefined {
    return this.#route;
  }

  /** One page of the run's events. */
  async getRunEvents(runId: string, options: RunEventsOptions = {}): Promise<RunEventsPage> {
    const id = text(runId, "runId");
    if (options.limit !== undefined) integer(options.limit, "limit", 1, MAX_RUN_EVENTS_LIMIT);
    if (options.after !== undefined) text(options.after, "after");
    const route = oneOf(options.route ?? "auto", ["service", "user", "auto"], "route");
    if (route !== "auto") return this.#page(route, id, options);
    if (this.#route !== undefined) return this.#page(this.#route, id, options);
    try {
      const page = await this.#page("service", id, options);
      this.#route = "service";
      return page;
    } catch (error) {
      if (!(error instanceof NovaOSAuthenticationError) || error.code !== 403) throw error;
    }
    const page = await this.#page("user", id, options);
    this.#route = "user";
    return page;
  }

  /**
   * Every event of the run from `after` on, page by page, in order: the loop
   * ends after the last page (for the user route, after one empty page).
   * A cursor that does not advance is a NovaOSServerError, never a loop.
   */
  async *runEvents(runId: string, options: RunEventsOptions = {}): AsyncGenerator<RunEvent, void, undefined> {
    let after = options.after;
    while (true) {
      const page = await this.getRunEvents(runId, { ...options, after });
      yield* page.events;
      if (page.nextCursor === undefined) return;
      if (page.nextCursor === after) {
        throw new NovaOSServerError(`${SERVICE.name} answered the same cursor again for run ${runId}`, {
          details: { runId, cursor: after },
        });
      }
      after = page.nextCursor;
    }
  }

  /** Applies a debug action to the run's live debug session. Sent once: never retried. */
  async sendDebugControl(
    runId: string,
    action: DebugAction,
    options: DebugControlOptions = {},
  ): Promise<DebugControlResult> {
    const path = { runId: text(runId, "runId"), action: oneOf(action, DEBUG_ACTIONS, "action") };
    const metadata = optionalObject(options.metadata, "metadata");
    const { body } = await this.connection.json(
      {
        method: "POST",
        route: DEBUG_ROUTE,
        idempotent: false,
        send: (signal, headers) =>
          this.connection.api.POST(DEBUG_ROUTE, {
            params: { path },
            body: metadata === undefined ? {} : { metadata },
            headers,
            signal,
            parseAs: "stream",
          }),
        error: (response, error) => this.#error(response, error, `POST ${DEBUG_ROUTE}`),
      },
      options,
    );
    const result = objectAnswer(body, `${SERVICE.name} POST ${DEBUG_ROUTE}`);
    return {
      sessionId: stringField(result.session_id),
      runId: stringField(result.run_id),
      breakpointState: stringField(result.breakpoint_state),
      action: optionalString(result.action) ?? action,
    };
  }

  async #page(route: "service" | "user", runId: string, options: RunEventsOptions): Promise<RunEventsPage> {
    const template = route === "service" ? SERVICE_ROUTE : USER_ROUTE;
    const operation = `GET ${template}`;
    const { body } = await this.connection.json(
      {
        method: "GET",
        route: template,
        idempotent: true,
        send: (signal, headers) =>
          route === "service"
            ? this.connection.api.GET(SERVICE_ROUTE, {
                params: { path: { runId }, query: { after: options.after, limit: options.limit } },
                headers,
                signal,
                parseAs: "stream",
              })
            : this.connection.api.GET(USER_ROUTE, {
                params: { path: { runId }, query: { after: options.after } },
                headers,
                signal,
                parseAs: "stream",
              }),
        error: (response, error) => this.#error(response, error, operation),
      },
      options,
    );
    const json = objectAnswer(body, `${SERVICE.name} ${operation}`);
    return route === "service" ? RunEventsPage.fromServiceRoute(json) : RunEventsPage.fromUserRoute(json);
  }

  #error(response: Response, body: unknown, operation: string) {
    return platformHttpError(response, body, { operation: `${SERVICE.name} ${operation}`, decisions: DECISIONS });
  }
}
