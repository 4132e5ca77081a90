/**
 * Client streaming throughput: frames received per second by a client
 * reading one SendStreamingMessage stream (JSON-RPC over SSE), for our Client
 * and @a2a-js/sdk 1.3.0's client, from the same server. The server is a bare
 * node:http handler replaying a pre-encoded stream (one Task, N artifact
 * updates, a COMPLETED status), so the server costs next to nothing and the
 * numbers are the clients' own. A raw reader (fetch + SSE decode +
 * JSON.parse, no typing) gives the ceiling. Three stream sizes check that
 * the cost is linear in the event count.
 *
 * Run on its own: `npx tsx bench/client-streaming.ts`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { ClientFactory } from "@a2a-js/sdk/client";
import { readSseEvents } from "../src/a2a/sse.js";
import { Client } from "../src/client/client.js";

export interface ClientStreamingRow {
  readonly subject: "ours" | "@a2a-js/sdk" | "raw reader";
  readonly events: number;
  /** Median of the measured runs. */
  readonly eventsPerSecond: number;
  readonly ms: number;
}

const SIZES = [1_000, 10_000, 20_000];
const RUNS = 5;
/** Warm-up before any measurement, so every client is measured with its hot paths compiled. */
const WARM_UP = { runs: 3, events: 10_000 };

/** The frames of one stream as JSON result fragments; the envelope (with the request's id) is added per request. */
function streamResults(events: number): string[] {
  const taskId = "bench-task";
  const contextId = "bench-context";
  const results = [JSON.stringify({ task: { id: taskId, contextId, status: { state: "TASK_STATE_WORKING" } } })];
  for (let i = 0; i < events; i++) {
    results.push(
      JSON.stringify({
        artifactUpdate: {
          taskId,
          contextId,
          artifact: { artifactId: "out", parts: [{ text: `token ${i} of the benchmark stream ` }] },
          append: i > 0,
        },
      }),
    );
  }
  results.push(JSON.stringify({ statusUpdate: { taskId, contextId, status: { state: "TASK_STATE_COMPLETED" } } }));
  return results;
}

async function startReplayServer(): Promise<{ url: string; close(): Promise<void> }> {
  const cache = new Map<number, string[]>();
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const request = JSON.parse(body) as { id: unknown; params: { message: { parts: { text?: string }[] } } };
    const events = Number(request.params.message.parts[0]?.text ?? "0");
    let results = cache.get(events);
    if (!results) {
      results = streamResults(events);
      cache.set(events, results);
    }
    const id = JSON.stringify(request.id);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    let chunk = "";
    for (const result of results) {
      chunk += `data: {"jsonrpc":"2.0","id":${id},"result":${result}}\n\n`;
      if (chunk.length > 64 * 1024) {
        if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
        chunk = "";
      }
    }
    res.end(chunk);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Reader = (events: number) => Promise<number>;

function oursReader(url: string): Reader {
  const client = new Client({ baseUrl: url });
  return async (events) => {
    let frames = 0;
    for await (const _ of client.sendStreamingMessage(String(events))) frames++;
    return frames;
  };
}

async function a2aJsReader(url: string): Promise<Reader> {
  const client = await new ClientFactory().createFromAgentCard({
    name: "bench",
    description: "",
    version: "1",
    supportedInterfaces: [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: [],
    defaultOutputModes: [],
    skills: [],
    signatures: [],
    provider: undefined,
  });
  return async (events) => {
    let frames = 0;
    const stream = client.sendMessageStream({
      tenant: "",
      message: {
        messageId: crypto.randomUUID(),
        contextId: "",
        taskId: "",
        role: 1,
        parts: [
          { content: { $case: "text", value: String(events) }, metadata: undefined, filename: "", mediaType: "" },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: undefined,
    });
    for await (const _ of stream) frames++;
    return frames;
  };
}

function rawReader(url: string): Reader {
  let id = 0;
  return async (events) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: ++id,
        method: "SendStreamingMessage",
        params: { message: { parts: [{ text: String(events) }] } },
      }),
    });
    let frames = 0;
    for await (const event of readSseEvents(response.body as ReadableStream<Uint8Array>)) {
      JSON.parse(event.data);
      frames++;
    }
    return frames;
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function measure(
  subject: ClientStreamingRow["subject"],
  read: Reader,
  events: number,
): Promise<ClientStreamingRow> {
  const expected = events + 2;
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    const frames = await read(events);
    times.push(performance.now() - start);
    if (frames !== expected) throw new Error(`${subject} read ${frames} frames, expected ${expected}`);
  }
  const ms = median(times);
  return { subject, events: expected, ms, eventsPerSecond: Math.round(expected / (ms / 1000)) };
}

/** Runs every size for the three readers against one replay server. */
export async function runClientStreaming(): Promise<ClientStreamingRow[]> {
  const server = await startReplayServer();
  try {
    const readers: [ClientStreamingRow["subject"], Reader][] = [
      ["ours", oursReader(server.url)],
      ["@a2a-js/sdk", await a2aJsReader(server.url)],
      ["raw reader", rawReader(server.url)],
    ];
    for (const [, read] of readers) for (let i = 0; i < WARM_UP.runs; i++) await read(WARM_UP.events);
    const rows: ClientStreamingRow[] = [];
    for (const events of SIZES) {
      for (const [subject, read] of readers) rows.push(await measure(subject, read, events));
    }
    return rows;
  } finally {
    await server.close();
  }
}

/** The scenario as a bench registry entry. */
export const clientStreamingScenario = {
  name: "client-streaming",
  description: "JSON-RPC SSE frames received per second by the client (ours vs @a2a-js/sdk), same replay server",
  run: runClientStreaming,
};

function printTable(rows: readonly ClientStreamingRow[]): void {
  console.log("client streaming (JSON-RPC SSE, replay server): frames received per second, median of 5");
  console.log(
    `${"frames".padStart(8)}  ${"subject".padEnd(12)}  ${"ms".padStart(9)}  ${"events/s".padStart(10)}  vs a2a-js`,
  );
  for (const row of rows) {
    const peer = rows.find((r) => r.events === row.events && r.subject === "@a2a-js/sdk");
    const ratio = peer ? (row.eventsPerSecond / peer.eventsPerSecond).toFixed(2) : "";
    console.log(
      `${String(row.events).padStart(8)}  ${row.subject.padEnd(12)}  ${row.ms.toFixed(1).padStart(9)}  ${String(row.eventsPerSecond).padStart(10)}  ${ratio}×`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await runClientStreaming());
}
