/**
 * `ctx.memory`: the memory a skill starts with, and the clients it makes.
 *
 *   const bundle = ctx.memory.context; // pre-fetched when the platform set ctx.memoryBudget
 *   await using memory = ctx.memory.client();
 *   await memory.write("agent", "Reporting API requires ISO 8601 date ranges");
 *
 * `context` is what the runtime's pre-fetch assembled before the skill ran:
 * undefined when the agent does not declare the memory capability (no
 * `ctx.memoryBudget`), the message had no text to recall by, or the pre-fetch
 * failed (logged, never thrown into the skill). `client()` makes a
 * `MemoryClient` bound to the run: the run's execution token as its bearer,
 * the run's trace, and the skill's context (idempotency keys of writes, the
 * conversation of hints, correlation ids). Each call makes a new client:
 * `await using` it, or `close()` it.
 */

import { integer } from "../http/argument-checks.js";
import { BearerTokenAuth } from "../http/auth.js";
import { type AssembleOptions, MemoryClient, type MemoryClientOptions } from "./memory-client.js";
import { MAX_LIVE_MESSAGE_LIMIT, MAX_TOP_K } from "./memory-limits.js";
import type { AssembleResult } from "./memory-results.js";

/** Where a namespace takes the run's token: an `ExecutionContext` (throws `MissingExecutionTokenError` without one). */
export interface ExecutionTokenSource {
  requireToken(): string;
}

export class MemoryNamespace {
  /** The bundle the runtime pre-fetched before the skill ran, if it did. */
  context: AssembleResult | undefined;
  readonly #tokens: ExecutionTokenSource;
  readonly #defaults: MemoryClientOptions;

  /** @param defaults options of every client it makes (base URL, fetch, resilience, the skill's context). */
  constructor(tokens: ExecutionTokenSource, defaults: MemoryClientOptions = {}) {
    this.#tokens = tokens;
    this.#defaults = defaults;
  }

  /** A MemoryClient with the run's token; `MissingExecutionTokenError` when the run has none. */
  client(options: MemoryClientOptions = {}): MemoryClient {
    const token = this.#tokens.requireToken();
    return new MemoryClient({ ...this.#defaults, ...options, auth: new BearerTokenAuth(token) });
  }
}

/**
 * The assemble options a platform memory budget (`ctx.memoryBudget`) asks
 * for: `tokens` is the bundle's token budget, `latency_ms` its latency
 * budget, `top_k` and `live_message_limit` its sizes. Other keys, and values
 * the service would refuse, are left out (the service's defaults apply).
 */
export function assembleOptionsFromBudget(budget: Readonly<Record<string, number>>): AssembleOptions {
  const read = (key: string, max?: number): number | undefined => {
    try {
      return budget[key] === undefined ? undefined : integer(budget[key], key, 1, max);
    } catch {
      return undefined;
    }
  };
  return {
    tokenBudget: read("tokens"),
    latencyBudgetMs: read("latency_ms"),
    topK: read("top_k", MAX_TOP_K),
    liveMessageLimit: read("live_message_limit", MAX_LIVE_MESSAGE_LIMIT),
  };
}
