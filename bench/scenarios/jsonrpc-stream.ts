/**
 * SendStreamingMessage: one task streaming N artifact chunks, read end to end
 * by a raw SSE reader (bench/support/sse-reader.ts). Ours at every size, the
 * raw node:http SSE writer (bench/servers/raw.ts) as the ceiling, and
 * @a2a-js/sdk at 1,000 events only: its cost per event doubles as the stream
 * doubles, so larger streams would take minutes. Ours must stay linear: the
 * per-event time at the largest size within 1.5× of that at the reference size.
 */
import type { OpenScenario, RoundsScenario, RowSpec, Sample, Side } from "../scenario.js";
import { type ChildServer, startServer } from "../support/child-server.js";
import { readStream } from "../support/sse-reader.js";

const LINEARITY_LIMIT = 1.5;
const HEADERS = { "A2A-Version": "1.0" };
const SERVERS: Readonly<Record<Side, string>> = { ours: "ours", peer: "a2a-js", ceiling: "raw" };

/** A SendStreamingMessage request asking the bench agent's `stream` skill for `events` events. */
export const streamRequestBody = (events: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "SendStreamingMessage",
    params: {
      message: {
        messageId: "m-1",
        role: "ROLE_USER",
        parts: [{ text: String(events) }],
        metadata: { skillId: "stream" },
      },
    },
  });

/** Events per second of one stream of `size` events. */
export async function eventsPerSecond(server: ChildServer, size: number): Promise<number> {
  const { events, ms } = await readStream(server.url, streamRequestBody(size), HEADERS);
  if (events < size) throw new Error(`${events} events for a ${size}-event stream`);
  return (events / ms) * 1000;
}

export interface StreamSizes {
  readonly name: string;
  /** Sizes every side but the peer streams. */
  readonly sizes: readonly number[];
  readonly peerSizes: readonly number[];
  /** The linearity row compares the per-event cost at the largest size with this one. */
  readonly reference: number;
  /** Events per second ours must reach at a size. */
  readonly minimumRate?: { readonly size: number; readonly rate: number };
  readonly long?: boolean;
}

const count = (n: number) => n.toLocaleString("en");

function streamScenario(spec: StreamSizes): RoundsScenario {
  const largest = Math.max(...spec.sizes);
  const rows: RowSpec[] = [
    ...spec.sizes.map((size) => ({
      key: String(size),
      name: `stream of ${count(size)} events`,
      unit: "events/s",
      targets: spec.minimumRate?.size === size ? { absolute: spec.minimumRate.rate } : undefined,
    })),
    {
      key: "linearity",
      name: `per-event cost at ${count(largest)} vs ${count(spec.reference)}`,
      unit: "×",
      targets: { maximum: LINEARITY_LIMIT },
      note: "1 = linear",
    },
  ];
  return {
    name: spec.name,
    rows,
    ...(spec.long ? { long: true } : {}),
    async open(): Promise<OpenScenario> {
      const running = new Map<Side, ChildServer>();
      const sides: Side[] = spec.peerSizes.length > 0 ? ["ours", "peer", "ceiling"] : ["ours", "ceiling"];
      try {
        for (const side of sides) {
          const server = await startServer(SERVERS[side]);
          running.set(side, server);
          // Warm up the JIT on a mid-sized stream (the peer on its smallest).
          const warmUp = side === "peer" ? Math.min(...spec.peerSizes) : 5_000;
          for (let i = 0; i < 2; i++) await eventsPerSecond(server, warmUp);
        }
      } catch (error) {
        await Promise.all([...running.values()].map((s) => s.stop()));
        throw error;
      }
      return {
        sides,
        async measure(side) {
          const server = running.get(side) as ChildServer;
          const sample: Record<string, number> = {};
          for (const size of side === "peer" ? spec.peerSizes : spec.sizes) {
            sample[String(size)] = await eventsPerSecond(server, size);
          }
          const reference = sample[String(spec.reference)];
          const last = sample[String(largest)];
          if (side === "ours" && reference && last) sample.linearity = reference / last;
          return sample satisfies Sample;
        },
        async close() {
          await Promise.all([...running.values()].map((s) => s.stop()));
        },
      };
    },
  };
}

export const jsonRpcStream = streamScenario({
  name: "JSON-RPC SSE stream",
  sizes: [1_000, 5_000, 20_000],
  peerSizes: [1_000],
  reference: 5_000,
  minimumRate: { size: 20_000, rate: 100_000 },
});

export const jsonRpcLongStream = streamScenario({
  name: "JSON-RPC SSE stream, 1M events",
  sizes: [20_000, 1_000_000],
  peerSizes: [],
  reference: 20_000,
  long: true,
});
