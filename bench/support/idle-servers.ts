/**
 * Waits until bench servers have stopped working on their own. A server
 * holding a million tasks goes on collecting garbage on its helper threads
 * after its last call (the peer's ListTasks copies and sorts every task it
 * holds); on a two-core machine those collections take the core the next
 * side's window needs. Each server's CPU time is read every `POLL_MS`
 * (bench/support/cpu-probe.mjs) until it used less than `IDLE_SHARE` of the
 * interval, or until `MAX_WAIT_MS` passed.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { ChildServer } from "./child-server.js";

const POLL_MS = 250;
/** Below this share of one core over a poll interval, a server counts as idle (answering the probe costs some). */
const IDLE_SHARE = 0.05;
/** A server still busy after this long is measured beside anyway: the wait must not hang a run. */
const MAX_WAIT_MS = 30_000;

/** Resolves when every server in `servers` is idle, or after `MAX_WAIT_MS`. */
export async function waitUntilIdle(servers: readonly ChildServer[]): Promise<void> {
  const deadline = performance.now() + MAX_WAIT_MS;
  for (const server of servers) {
    let last = await server.cpuUsage();
    while (performance.now() < deadline) {
      await sleep(POLL_MS);
      const now = await server.cpuUsage();
      const usedUs = now.user - last.user + (now.system - last.system);
      last = now;
      if (usedUs < IDLE_SHARE * POLL_MS * 1000) break;
    }
  }
}
