/**
 * SendStreamingMessage: one task streaming N artifact chunks, read by a raw
 * SSE reader, end to end. Ours from 1,000 to 20,000 events (cost must grow
 * linearly: the per-event time at 20,000 within 1.5× of that at 5,000);
 * @a2a-js/sdk at the sizes it finishes in reasonable time, compared at the
 * same sizes.
 */
import type { BenchRow, BenchScenario } from "../scenario.js";
import { startServer } from "../support/child-server.js";
import { readStream } from "../support/sse-reader.js";

const OUR_SIZES = [1_000, 2_000, 5_000, 10_000, 20_000];
/** a2a-js slows down superlinearly; a larger run would take minutes. */
const PEER_SIZES = [1_000, 2_000];
const LINEARITY_LIMIT = 1.5;

const body = (events: number) =>
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

/** Events per second for each size (best of two runs, after two warm-up runs). */
async function eventsPerSecond(server: string, sizes: readonly number[]): Promise<Map<number, number>> {
  const running = await startServer(server);
  const out = new Map<number, number>();
  try {
    // Warm up the JIT on a mid-sized stream first.
    for (let i = 0; i < 2; i++) await readStream(running.url, body(5_000), { "A2A-Version": "1.0" });
    for (const size of sizes) {
      let best = 0;
      for (let run = 0; run < 2; run++) {
        const { events, ms } = await readStream(running.url, body(size), { "A2A-Version": "1.0" });
        if (events < size) throw new Error(`${server}: ${events} events for a ${size}-event stream`);
        best = Math.max(best, (events / ms) * 1000);
      }
      out.set(size, best);
    }
  } finally {
    await running.stop();
  }
  return out;
}

export const jsonRpcStream: BenchScenario = {
  name: "JSON-RPC SSE stream",
  async run() {
    const ours = await eventsPerSecond("ours", OUR_SIZES);
    const peer = await eventsPerSecond("a2a-js", PEER_SIZES);
    const rows: BenchRow[] = OUR_SIZES.map((size) => ({
      name: `stream of ${size.toLocaleString("en")} events`,
      unit: "events/s",
      ours: ours.get(size) ?? 0,
      peer: peer.get(size),
      ...(size === 20_000 ? { targets: { absolute: 100_000 } } : {}),
    }));
    const growth = (ours.get(5_000) ?? 0) / (ours.get(20_000) ?? 1);
    rows.push({
      name: "per-event cost at 20,000 vs 5,000",
      unit: "×",
      ours: growth,
      targets: { maximum: LINEARITY_LIMIT },
      note: "1 = linear",
    });
    const peerGrowth = (peer.get(1_000) ?? 0) / (peer.get(2_000) ?? 1);
    rows.push({
      name: "  @a2a-js/sdk per-event cost at 2,000 vs 1,000",
      unit: "×",
      ours: (ours.get(1_000) ?? 0) / (ours.get(2_000) ?? 1),
      peer: peerGrowth,
      note: "1 = linear",
    });
    return rows;
  },
};
