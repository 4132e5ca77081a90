/**
 * Fairness: SendMessage echo from 8 clients while one client reads a
 * 100,000-event stream, against the same echo with nothing else running.
 * The target: echo keeps at least 40 % of its idle throughput
 * and its p99 stays under 25 ms; the stream's own rate may drop. Idle and
 * loaded windows alternate, several rounds, and the rows are medians with the
 * spread in the note, so one noisy window on a shared machine moves nothing.
 *
 * Self-contained: it needs only the bench server `ours` (skills `echo` and
 * `stream`), the child-server, load and SSE-reader support, and the Scenario
 * interface. `npx tsx bench/scenarios/fairness.ts [rounds] [seconds]` runs it
 * alone and prints the rows with the machine and its load average.
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import type { BenchRow, BenchScenario } from "../scenario.js";
import { type ChildServer, startServer } from "../support/child-server.js";
import { ECHO_MESSAGE } from "../support/echo-targets.js";
import { readStream } from "../support/sse-reader.js";

const CONNECTIONS = 8;
const STREAM_EVENTS = 100_000;
const HEADERS = { "content-type": "application/json", "A2A-Version": "1.0" };
const ECHO_BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: ECHO_MESSAGE } });
const STREAM_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "SendStreamingMessage",
  params: {
    message: {
      messageId: "m-stream",
      role: "ROLE_USER",
      parts: [{ text: String(STREAM_EVENTS) }],
      metadata: { skillId: "stream" },
    },
  },
});

interface EchoWindow {
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
}

async function echoWindow(url: string, seconds: number): Promise<EchoWindow> {
  const result = await autocannon({
    url,
    method: "POST",
    headers: HEADERS,
    body: ECHO_BODY,
    connections: CONNECTIONS,
    duration: seconds,
  });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(`echo window had ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`);
  }
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99 };
}

/** 100k-event streams, one after the other, until `stop` resolves; the events per second they were read at. */
async function streamsUntil(url: string, stop: Promise<unknown>): Promise<number> {
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  let events = 0;
  let ms = 0;
  while (!stopped) {
    const run = await readStream(url, STREAM_BODY, { "A2A-Version": "1.0" });
    if (run.events < STREAM_EVENTS) throw new Error(`${run.events} events for a ${STREAM_EVENTS}-event stream`);
    events += run.events;
    ms += run.ms;
  }
  return (events / ms) * 1000;
}

interface Round {
  readonly idle: EchoWindow;
  readonly loaded: EchoWindow;
  readonly streamEventsPerSecond: number;
}

async function round(server: ChildServer, seconds: number): Promise<Round> {
  const idle = await echoWindow(server.url, seconds);
  const loadedWindow = echoWindow(server.url, seconds);
  // The stream starts with the window and streams run back to back until it ends.
  const streamEventsPerSecond = await streamsUntil(server.url, loadedWindow);
  return { idle, loaded: await loadedWindow, streamEventsPerSecond };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const spread = (values: readonly number[], digits = 0) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

/** The rows of `rounds` interleaved idle and loaded windows of `seconds` each. */
export async function measureFairness(rounds = 5, seconds = 5): Promise<BenchRow[]> {
  const server = await startServer("ours");
  const load = os.loadavg()[0] as number;
  try {
    // Warm up the JIT on both workloads.
    await echoWindow(server.url, 1);
    await readStream(server.url, STREAM_BODY, { "A2A-Version": "1.0" });
    const results: Round[] = [];
    for (let i = 0; i < rounds; i++) results.push(await round(server, seconds));
    const ratios = results.map((r) => r.loaded.requestsPerSecond / r.idle.requestsPerSecond);
    const idle = results.map((r) => r.idle.requestsPerSecond);
    const loaded = results.map((r) => r.loaded.requestsPerSecond);
    const p99 = results.map((r) => r.loaded.p99Ms);
    const idleP99 = results.map((r) => r.idle.p99Ms);
    const stream = results.map((r) => r.streamEventsPerSecond);
    const note = `${rounds} interleaved rounds of ${seconds} s, medians; load average ${load.toFixed(2)} at start`;
    return [
      { name: `echo, idle (${CONNECTIONS} connections)`, unit: "req/s", ours: median(idle), note: spread(idle) },
      {
        name: `echo during a ${STREAM_EVENTS.toLocaleString("en")}-event stream`,
        unit: "req/s",
        ours: median(loaded),
        note: spread(loaded),
      },
      {
        name: "echo during the stream / idle",
        unit: "×",
        ours: median(ratios),
        targets: { absolute: 0.4 },
        note: `${spread(ratios, 2)}; ${note}`,
      },
      {
        name: "echo p99 during the stream",
        unit: "ms",
        ours: median(p99),
        targets: { maximum: 25 },
        note: `${spread(p99)}; idle p99 ${spread(idleP99)} ms`,
      },
      { name: "stream read during echo load", unit: "events/s", ours: median(stream), note: spread(stream) },
    ];
  } finally {
    await server.stop();
  }
}

export const fairness: BenchScenario = {
  name: "Fairness: echo beside a long stream",
  run: () => measureFairness(),
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv[2] ?? 5);
  const seconds = Number(process.argv[3] ?? 5);
  const cpu = os.cpus();
  process.stdout.write(`Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? "?"}\n`);
  for (const row of await measureFairness(rounds, seconds)) {
    const value = row.ours >= 100 ? Math.round(row.ours).toLocaleString("en") : row.ours.toFixed(2);
    process.stdout.write(`${row.name}: ${value} ${row.unit} (${row.note ?? ""})\n`);
  }
  process.stdout.write(
    `load average at end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
  );
}
