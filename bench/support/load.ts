/**
 * Request/response load with autocannon (closed loop: each connection sends
 * its next request when the last answer is in), after checking one answer is
 * right. Latencies are taken from autocannon's per-response event, in
 * milliseconds with sub-millisecond precision (its own histogram keeps whole
 * milliseconds, too coarse at one connection).
 */
import autocannon from "autocannon";
import { quantile } from "./stats.js";

export interface LoadOptions {
  readonly url: string;
  readonly body: string;
  readonly headers?: Record<string, string>;
  /** Checked against one response before measuring. */
  readonly verify: (body: unknown) => boolean;
  readonly connections?: number;
  readonly durationSeconds?: number;
  /** Calls to make instead of a timed window (for servers too slow to fill one). */
  readonly calls?: number;
  /** 0 skips the warm-up (a server just loaded by the previous window is warm). */
  readonly warmupSeconds?: number;
  /** Called right before and right after the measured window (e.g. to read the server's CPU time). */
  readonly around?: WindowHooks;
}

export interface WindowHooks {
  before(): Promise<void>;
  after(): Promise<void>;
}

/** What one measured window saw. */
export interface LoadResult {
  /** Calls answered per second over the window. */
  readonly rate: number;
  /** Calls answered in the window. */
  readonly calls: number;
  /** Median and 99th percentile latency, ms (undefined where the load does not time calls). */
  readonly p50?: number;
  readonly p99?: number;
}

/** Loads `options.url` for one window and reports its rate and latencies. */
export async function httpLoad(options: LoadOptions): Promise<LoadResult> {
  const headers = { "content-type": "application/json", ...options.headers };
  const probe = await fetch(options.url, { method: "POST", headers, body: options.body });
  const answer = await probe.json();
  if (!options.verify(answer))
    throw new Error(`unexpected answer from ${options.url}: ${JSON.stringify(answer).slice(0, 300)}`);
  const run = (duration: number, amount?: number) =>
    autocannon({
      url: options.url,
      method: "POST",
      headers,
      body: options.body,
      connections: options.connections ?? 32,
      duration,
      ...(amount === undefined ? {} : { amount, timeout: 60 }),
    });
  const warmup = options.warmupSeconds ?? 1;
  if (warmup > 0) await run(warmup);
  await options.around?.before();
  const latencies: number[] = [];
  const window = run(options.durationSeconds ?? 5, options.calls);
  window.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  const result = await window;
  await options.around?.after();
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(`load run had ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`);
  }
  latencies.sort((a, b) => a - b);
  return {
    rate: latencies.length / result.duration,
    calls: latencies.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
  };
}

/** Requests per second, over the measured window. */
export async function requestsPerSecond(options: LoadOptions): Promise<number> {
  return (await httpLoad(options)).rate;
}
