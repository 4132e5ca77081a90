/** Request/response load with autocannon, after checking one answer is right. */
import autocannon from "autocannon";

export interface LoadOptions {
  readonly url: string;
  readonly body: string;
  readonly headers?: Record<string, string>;
  /** Checked against one response before measuring. */
  readonly verify: (body: unknown) => boolean;
  readonly connections?: number;
  readonly durationSeconds?: number;
  readonly warmupSeconds?: number;
  /** Called right before and right after the measured window (e.g. to read the server's CPU time). */
  readonly around?: WindowHooks;
}

export interface WindowHooks {
  before(): Promise<void>;
  after(): Promise<void>;
}

/** Requests per second, averaged over the measured window. */
export async function requestsPerSecond(options: LoadOptions): Promise<number> {
  const headers = { "content-type": "application/json", ...options.headers };
  const probe = await fetch(options.url, { method: "POST", headers, body: options.body });
  const answer = await probe.json();
  if (!options.verify(answer))
    throw new Error(`unexpected answer from ${options.url}: ${JSON.stringify(answer).slice(0, 300)}`);
  const run = (duration: number) =>
    autocannon({
      url: options.url,
      method: "POST",
      headers,
      body: options.body,
      connections: options.connections ?? 32,
      duration,
    });
  await run(options.warmupSeconds ?? 1);
  await options.around?.before();
  const result = await run(options.durationSeconds ?? 5);
  await options.around?.after();
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(`load run had ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`);
  }
  return result.requests.average;
}
