/**
 * Client streaming: frames received per second by a client reading one
 * JSON-RPC SendStreamingMessage stream, for our Client and @a2a-js/sdk
 * 1.3.0's client, from the same replay server (bench/servers/replay-stream.ts,
 * in its own process, costing next to nothing). The ceiling is a raw reader:
 * fetch, SSE decoding and JSON.parse per event, no typing, no checks. Each
 * reader is warmed up first; a round reads each size once per reader. The
 * per-frame cost must stay linear in the stream size.
 */
import { ClientFactory } from "@a2a-js/sdk/client";
import { readSseEvents } from "../../src/a2a/sse.js";
import { Client } from "../../src/client/client.js";
import type { OpenScenario, RoundsScenario, Side } from "../scenario.js";
import { startServer } from "../support/child-server.js";

const SIZES = [1_000, 10_000, 20_000];
const WARM_UP = { runs: 3, events: 10_000 };
const LINEARITY_LIMIT = 1.5;

/** Reads one stream of `events` artifact updates and returns the number of frames seen. */
type Reader = (events: number) => Promise<number>;

function ours(url: string): Reader {
  const client = new Client({ baseUrl: url });
  return async (events) => {
    let frames = 0;
    for await (const _ of client.sendStreamingMessage(String(events))) frames++;
    return frames;
  };
}

async function peer(url: string): Promise<Reader> {
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

function raw(url: string): Reader {
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

const count = (n: number) => n.toLocaleString("en");
const first = SIZES[0] as number;
const last = SIZES[SIZES.length - 1] as number;

export const clientStream: RoundsScenario = {
  name: "client: JSON-RPC stream received",
  rows: [
    ...SIZES.map((events) => ({ key: String(events), name: `stream of ${count(events)} events`, unit: "frames/s" })),
    {
      key: "linearity",
      name: `per-frame cost ${count(last)} vs ${count(first)}`,
      unit: "× (1 = linear)",
      targets: { maximum: LINEARITY_LIMIT },
      note: `linear when ≤ ${LINEARITY_LIMIT}`,
    },
  ],
  async open(): Promise<OpenScenario> {
    const server = await startServer("replay-stream");
    try {
      const readers: Record<Side, Reader> = {
        ours: ours(server.url),
        peer: await peer(server.url),
        ceiling: raw(server.url),
      };
      for (const read of Object.values(readers)) for (let i = 0; i < WARM_UP.runs; i++) await read(WARM_UP.events);
      return {
        sides: ["ours", "peer", "ceiling"],
        async measure(side) {
          const sample: Record<string, number> = {};
          for (const events of SIZES) {
            const started = performance.now();
            const frames = await readers[side](events);
            const ms = performance.now() - started;
            if (frames !== events + 2) throw new Error(`${side} read ${frames} frames of a ${events + 2}-frame stream`);
            sample[String(events)] = (frames / ms) * 1000;
          }
          sample.linearity = (sample[String(first)] ?? 0) / (sample[String(last)] ?? 1);
          return sample;
        },
        close: () => server.stop(),
      };
    } catch (error) {
      await server.stop();
      throw error;
    }
  },
};
