/**
 * Fairness: echo calls from 8 connections while another client reads
 * 100,000-event streams back to back, against the same echo with no stream
 * (ours only; @a2a-js/sdk takes minutes over a stream this long). Targets:
 * the echo keeps at least 40 % of its idle throughput and its p99 stays
 * under 25 ms; the stream's own rate may drop.
 */
import type { OpenScenario, RoundsScenario } from "../scenario.js";
import { type ChildServer, startServer } from "../support/child-server.js";
import { ECHO_MESSAGE } from "../support/echo-message.js";
import { httpLoad } from "../support/load.js";
import { readStream } from "../support/sse-reader.js";
import { streamRequestBody } from "./jsonrpc-stream.js";

const STREAM_EVENTS = 100_000;
const CONNECTIONS = 8;
const WINDOW = { durationSeconds: 2, warmupSeconds: 0.5 };
const HEADERS = { "A2A-Version": "1.0" };

const echoBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: ECHO_MESSAGE } });
const streamBody = streamRequestBody(STREAM_EVENTS);

// biome-ignore lint/suspicious/noExplicitAny: answers are checked loosely.
const completedTask = (answer: any) => answer?.result?.task?.status?.state === "TASK_STATE_COMPLETED";

const echo = (server: ChildServer, warmupSeconds: number) =>
  httpLoad({
    url: server.url,
    body: echoBody,
    headers: HEADERS,
    verify: completedTask,
    connections: CONNECTIONS,
    ...WINDOW,
    warmupSeconds,
  });

/** Streams back to back until `stop()`; resolves to the events per second over the streams read. */
function streamsUntilStopped(server: ChildServer): { stop(): Promise<number> } {
  let stopping = false;
  let events = 0;
  let ms = 0;
  const loop = (async () => {
    while (!stopping) {
      const read = await readStream(server.url, streamBody, HEADERS);
      if (read.events < STREAM_EVENTS) throw new Error(`${read.events} events for a ${STREAM_EVENTS}-event stream`);
      events += read.events;
      ms += read.ms;
    }
  })();
  return {
    async stop() {
      stopping = true;
      await loop;
      return (events / ms) * 1000;
    },
  };
}

/** What one round of the scenario read on one server. */
export type FairnessRound = {
  readonly idle: number;
  readonly beside: number;
  /** beside / idle, %. */
  readonly share: number;
  readonly p99idle: number;
  readonly p99beside: number;
  /** The stream's rate beside the echo, events/s. */
  readonly stream: number;
};

/** Warms `server` up for the scenario (JIT): an echo window and one stream. */
export async function warmForFairness(server: ChildServer): Promise<void> {
  await echo(server, 1);
  await readStream(server.url, streamBody, HEADERS);
}

/** The echo alone, then beside streams read back to back. */
export async function fairnessRound(server: ChildServer): Promise<FairnessRound> {
  const alone = await echo(server, WINDOW.warmupSeconds);
  const streams = streamsUntilStopped(server);
  const beside = await echo(server, 0);
  const stream = await streams.stop();
  return {
    idle: alone.rate,
    beside: beside.rate,
    share: (beside.rate / alone.rate) * 100,
    p99idle: alone.p99 ?? Number.NaN,
    p99beside: beside.p99 ?? Number.NaN,
    stream,
  };
}

export const fairness: RoundsScenario = {
  name: `echo beside a ${STREAM_EVENTS.toLocaleString("en")}-event stream`,
  rows: [
    { key: "idle", name: `echo alone (${CONNECTIONS} connections)`, unit: "req/s" },
    { key: "beside", name: "echo beside the stream", unit: "req/s" },
    { key: "share", name: "  beside / alone", unit: "%", targets: { absolute: 40 } },
    { key: "p99idle", name: "  latency p99 alone", unit: "ms" },
    { key: "p99beside", name: "  latency p99 beside the stream", unit: "ms", targets: { maximum: 25 } },
    { key: "stream", name: "stream rate beside the echo", unit: "events/s" },
  ],
  async open(): Promise<OpenScenario> {
    const server = await startServer("ours");
    await warmForFairness(server);
    return {
      sides: ["ours"],
      measure: () => fairnessRound(server),
      close: () => server.stop(),
    };
  },
};
