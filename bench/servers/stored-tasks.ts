/**
 * Bench servers with a store to fill: when `BENCH_TASKS` is set, the server
 * makes that many echo tasks before it listens, each by a SendMessage call
 * in process (the same handler path as a call over the wire, without the
 * socket), so the store holds what real calls leave in it. After printing
 * its port, it prints `stored <count> <bytes per task>`: the growth of the
 * heap and of the array buffers (so bytes a store keeps outside the heap
 * count too), after a full GC when node runs with `--expose-gc`, divided by
 * the count.
 */

/** The task count asked for (`BENCH_TASKS`), or 0. */
export function tasksToStore(): number {
  const count = Number(process.env.BENCH_TASKS ?? "0");
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`BENCH_TASKS=${process.env.BENCH_TASKS}`);
  return count;
}

/** The heap used and the array buffers held, after a full GC (when exposed). */
function memoryAfterGc(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** Sends `count` echo messages (`send(i)`), at most 64 at a time; resolves to the bytes per stored task. */
export async function storeTasks(count: number, send: (i: number) => Promise<unknown>): Promise<number> {
  const before = memoryAfterGc();
  const inFlight = 64;
  let next = 0;
  const worker = async () => {
    while (next < count) await send(next++);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
  return count === 0 ? 0 : (memoryAfterGc() - before) / count;
}

/** Prints the port, then (when tasks were stored) the `stored` line. */
export function announce(port: number, stored: { count: number; bytesPerTask: number } | undefined): void {
  process.stdout.write(`${port}\n`);
  if (stored) process.stdout.write(`stored ${stored.count} ${Math.round(stored.bytesPerTask)}\n`);
}
