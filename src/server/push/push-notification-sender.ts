/**
 * `PushNotificationSender`: delivers a task's updates to the webhooks
 * registered for it (spec §4.3.3, §13.2). Opt-in: give one to the
 * AgentBuilder (`pushNotificationDelivery`) and the card advertises push
 * notifications. Each update (status and artifact updates, the frames a
 * stream carries) is POSTed as its StreamResponse in the HTTP+JSON form,
 * `Content-Type: application/a2a+json`, with the config's authentication as
 * `Authorization: <scheme> <credentials>` and its token as
 * `X-A2A-Notification-Token`.
 *
 * It never blocks a task: the harness hands an update over synchronously and
 * the sender queues it. Updates of one task go out in order, one after the
 * other (to each of its webhooks at once); at most `concurrency` tasks are
 * delivered at a time; beyond `maxQueued` waiting updates, intermediate ones
 * are dropped (and logged), never a terminal or interrupted one. A failed
 * POST (no answer, a deadline, 408, 429, 5xx) is retried with the SDK's one
 * backoff rule on the sender's `Clock`; any other answer is final.
 *
 * Webhooks are dialled through the SSRF guard of `src/http/` (the policy
 * discovery uses): a private, loopback, link-local or metadata address is
 * refused at connect time, redirects are not followed, unless the policy
 * allows them (`allowPrivateIps` for a local test webhook).
 */
import { type StreamResponse, StreamResponseSchema } from "../../../gen/a2a_pb.js";
import { A2A_JSON_MEDIA_TYPE } from "../../a2a/constants.js";
import { encodeMessageText } from "../../a2a/protojson.js";
import { isLastFrame } from "../../a2a/stream-frame.js";
import type { AgentUrlPolicy } from "../../http/agent-url.js";
import { AgentUrlRejectedError } from "../../http/agent-url-error.js";
import type { GuardedFetch } from "../../http/guarded-fetch.js";
import { backoffDelayMs } from "../../runtime/backoff.js";
import { type Clock, systemClock } from "../../runtime/clock.js";
import { createLogger, type Logger } from "../../runtime/logger.js";
import type { PushNotificationConfigStore, StoredPushConfig } from "../push-config-store.js";
import { scopedKey } from "../task-store.js";

/** The header a webhook reads the config's token from (the peers' convention). */
export const NOTIFICATION_TOKEN_HEADER = "X-A2A-Notification-Token";

export const DEFAULT_PUSH_CONCURRENCY = 8;
export const DEFAULT_PUSH_MAX_QUEUED = 10_000;
export const DEFAULT_PUSH_MAX_ATTEMPTS = 3;
export const DEFAULT_PUSH_BASE_DELAY_MS = 1_000;
export const DEFAULT_PUSH_MAX_DELAY_MS = 30_000;
/** Deadline of one POST (spec §4.3.3 recommends 10–30 s). */
export const DEFAULT_PUSH_TIMEOUT_MS = 10_000;

export interface PushNotificationSenderOptions {
  /**
   * Which webhook URLs may be dialled. Default: any public host over http or
   * https; never a private, loopback, link-local or reserved address.
   */
  urlPolicy?: AgentUrlPolicy;
  /** Tasks delivered at the same time. Default 8. */
  concurrency?: number;
  /** Updates waiting at most (intermediate ones beyond are dropped). Default 10,000. */
  maxQueued?: number;
  /** POSTs per update and webhook, the first included. Default 3. */
  maxAttempts?: number;
  /** Backoff before the first retry (ms), doubled per retry, jittered down by up to half. Default 1,000. */
  baseDelayMs?: number;
  /** Cap on a backoff delay (ms). Default 30,000. */
  maxDelayMs?: number;
  /** Deadline of one POST (ms). Default 10,000. */
  timeoutMs?: number;
  /** Where backoff waits; default the real timers. */
  clock?: Clock;
  /** The jitter source, in [0, 1). Default `Math.random`. */
  random?: () => number;
  /** Default: a JSON-lines logger with PII masked. */
  logger?: Logger;
}

/** One task's waiting updates; delivered by one worker at a time, in order. */
interface Lane {
  readonly key: string;
  readonly store: PushNotificationConfigStore;
  readonly scope: string;
  readonly taskId: string;
  readonly frames: StreamResponse[];
  dropped: number;
}

/** The configs of a task, every page. */
async function configsOf(store: PushNotificationConfigStore, taskId: string, scope: string) {
  const all: StoredPushConfig[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await store.list(taskId, scope, { after, pageSize: 100 });
    all.push(...page.configs);
    const last = page.configs.at(-1);
    if (!page.more || !last) return all;
    after = last.config.id;
  }
}

function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export class PushNotificationSender {
  readonly #options: Required<Omit<PushNotificationSenderOptions, "urlPolicy" | "logger">>;
  readonly #logger: Logger;
  readonly #urlPolicy: AgentUrlPolicy | undefined;
  /** Made on the first delivery: the guarded fetch is Node's (undici, DNS), and `/server` loads in any runtime. */
  #fetch: Promise<GuardedFetch> | undefined;
  /** Lanes with updates waiting or being delivered, by scoped task id. */
  readonly #lanes = new Map<string, Lane>();
  /** Lanes waiting for a worker, in arrival order. */
  readonly #ready: Lane[] = [];
  #active = 0;
  #queued = 0;
  #idle: (() => void)[] = [];

  constructor(options: PushNotificationSenderOptions = {}) {
    this.#options = {
      concurrency: Math.max(1, options.concurrency ?? DEFAULT_PUSH_CONCURRENCY),
      maxQueued: Math.max(1, options.maxQueued ?? DEFAULT_PUSH_MAX_QUEUED),
      maxAttempts: Math.max(1, options.maxAttempts ?? DEFAULT_PUSH_MAX_ATTEMPTS),
      baseDelayMs: options.baseDelayMs ?? DEFAULT_PUSH_BASE_DELAY_MS,
      maxDelayMs: options.maxDelayMs ?? DEFAULT_PUSH_MAX_DELAY_MS,
      timeoutMs: options.timeoutMs ?? DEFAULT_PUSH_TIMEOUT_MS,
      clock: options.clock ?? systemClock,
      random: options.random ?? Math.random,
    };
    this.#logger = options.logger ?? createLogger();
    this.#urlPolicy = options.urlPolicy;
  }

  /** Updates waiting to be delivered (not counting the one each busy task is delivering). */
  get queued(): number {
    return this.#queued;
  }

  /**
   * @internal Hands over one update of a task (the harness calls this as the
   * update happens). Returns at once; never throws.
   */
  enqueue(store: PushNotificationConfigStore, scope: string, taskId: string, frame: StreamResponse): void {
    const key = scopedKey(taskId, scope);
    let lane = this.#lanes.get(key);
    if (this.#queued >= this.#options.maxQueued && !isLastFrame(frame)) {
      if (lane) lane.dropped++;
      else this.#logger.warn({ task_id: taskId }, "push notification queue full: an update was not delivered");
      return;
    }
    if (!lane) {
      lane = { key, store, scope, taskId, frames: [], dropped: 0 };
      this.#lanes.set(key, lane);
      this.#ready.push(lane);
    }
    lane.frames.push(frame);
    this.#queued++;
    this.#schedule();
  }

  /** Resolves once nothing waits and nothing is being delivered. */
  whenIdle(): Promise<void> {
    if (this.#lanes.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Closes the sender's connections (updates still waiting are not delivered). */
  async close(): Promise<void> {
    await (await this.#fetch)?.close();
  }

  #guardedFetch(): Promise<GuardedFetch> {
    this.#fetch ??= import("../../http/guarded-fetch.js").then(({ createGuardedFetch }) =>
      createGuardedFetch({ allowedSchemes: ["https", "http"], ...this.#urlPolicy }),
    );
    return this.#fetch;
  }

  #schedule(): void {
    while (this.#active < this.#options.concurrency && this.#ready.length > 0) {
      const lane = this.#ready.shift() as Lane;
      this.#active++;
      void this.#drain(lane).finally(() => {
        this.#active--;
        this.#lanes.delete(lane.key);
        if (lane.frames.length > 0) {
          // Updates that arrived as the lane finished: it goes round again.
          this.#lanes.set(lane.key, lane);
          this.#ready.push(lane);
        }
        this.#schedule();
        if (this.#lanes.size === 0) for (const resolve of this.#idle.splice(0)) resolve();
      });
    }
  }

  /** Delivers a lane's updates in order, each to every webhook of its task. Never rejects. */
  async #drain(lane: Lane): Promise<void> {
    let configs: StoredPushConfig[] = [];
    try {
      configs = await configsOf(lane.store, lane.taskId, lane.scope);
    } catch (error) {
      this.#logger.error({ err: error, task_id: lane.taskId }, "push notification configs could not be read");
    }
    while (lane.frames.length > 0) {
      const frame = lane.frames.shift() as StreamResponse;
      this.#queued--;
      if (configs.length === 0) continue;
      const body = encodeMessageText(StreamResponseSchema, frame);
      await Promise.all(configs.map((stored) => this.#deliver(stored, body, lane.taskId)));
    }
    if (lane.dropped > 0) {
      this.#logger.warn(
        { task_id: lane.taskId, dropped: lane.dropped },
        "push notification queue full: updates were not delivered",
      );
      lane.dropped = 0;
    }
  }

  /** POSTs one update to one webhook, retrying what may succeed later. Never rejects. */
  async #deliver(stored: StoredPushConfig, body: string, taskId: string): Promise<void> {
    const { config } = stored;
    const headers: Record<string, string> = { "content-type": A2A_JSON_MEDIA_TYPE };
    const auth = config.authentication;
    if (auth?.scheme) headers.authorization = auth.credentials ? `${auth.scheme} ${auth.credentials}` : auth.scheme;
    if (config.token) headers[NOTIFICATION_TOKEN_HEADER.toLowerCase()] = config.token;
    const { maxAttempts, baseDelayMs, maxDelayMs, timeoutMs, clock, random } = this.#options;
    const log = { task_id: taskId, config_id: config.id };
    for (let attempt = 1; ; attempt++) {
      let failure: string;
      let again: boolean;
      try {
        const response = await (await this.#guardedFetch()).fetch(config.url, {
          method: "POST",
          headers,
          body,
          redirect: "manual",
          signal: AbortSignal.timeout(timeoutMs),
        });
        await response.body?.cancel();
        if (response.ok) return;
        failure = `HTTP ${response.status}`;
        again = retryable(response.status);
      } catch (error) {
        if (error instanceof AgentUrlRejectedError) {
          this.#logger.warn({ ...log, reason: error.reason }, `push notification refused: ${error.message}`);
          return;
        }
        failure = (error as Error).message;
        again = true;
      }
      if (!again || attempt >= maxAttempts) {
        this.#logger.warn({ ...log, attempts: attempt }, `push notification not delivered: ${failure}`);
        return;
      }
      await clock.sleep(backoffDelayMs(attempt, baseDelayMs, maxDelayMs, random));
    }
  }
}
