/**
 * Bench servers whose task store is filled before they listen
 * (bench/servers/stored-tasks.ts): ours (`ours`) and @a2a-js/sdk's
 * (`a2a-js`), each holding `count` echo tasks made by SendMessage calls.
 */
import type { Side } from "../scenario.js";
import { type ChildServer, startServer } from "./child-server.js";

const SERVERS: Partial<Readonly<Record<Side, string>>> = { ours: "ours", peer: "a2a-js" };

export interface StoredServer {
  readonly server: ChildServer;
  /** Heap growth per stored task, bytes (after a full GC before and after filling). */
  readonly bytesPerTask: number;
}

/**
 * From this many stored tasks a server runs as docs/building-agents.md advises for very large in-memory stores
 * (decision S302): a young generation of 64 MB, so that V8's scavenges, whose pause grows with the old generation,
 * come four times less often, and kept at that size (the minimum too): a collection made while the server idles
 * would shrink it to 1 MB, and a load that only reads leaves too little alive to grow it again.
 */
const LARGE_STORE = 500_000;
const LARGE_STORE_FLAGS = ["--max-semi-space-size=64", "--min-semi-space-size=64"];

/** Node's flags for a server holding `count` tasks: room for a million tasks of either SDK, the GC exposed for the heap figure. */
export function storedServerFlags(count: number): string[] {
  const flags = ["--expose-gc", "--max-old-space-size=12288"];
  return count >= LARGE_STORE ? [...flags, ...LARGE_STORE_FLAGS] : flags;
}

/** Starts `side`'s JSON-RPC server with `count` stored echo tasks. */
export async function startStoredServer(side: Side, count: number): Promise<StoredServer> {
  const name = SERVERS[side];
  if (!name) throw new Error(`no stored-task server for ${side}`);
  const server = await startServer(name, {
    execArgv: storedServerFlags(count),
    env: { BENCH_TASKS: String(count) },
  });
  try {
    const line = await server.readLine();
    const match = /^stored (\d+) (\d+)$/.exec(line);
    if (!match || Number(match[1]) !== count)
      throw new Error(`${name}: expected "stored ${count} <bytes>", got "${line}"`);
    return { server, bytesPerTask: Number(match[2]) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
