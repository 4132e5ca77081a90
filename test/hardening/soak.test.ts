/**
 * The soak test, reduced (`make soak` runs it full): an agent under a 64 MB
 * V8 heap is sent 2 MB messages and 100 KB follow-ups to one paused task, far
 * more than it may keep; it stays up, its heap after collection stays under
 * the bound its budgets set, its RSS stays flat, and the paused task's history
 * was trimmed to its budget with the trim counted.
 */
import { describe, expect, it } from "vitest";
import { runSoak } from "../../tools/soak.js";

describe("soak (reduced)", () => {
  it("keeps an agent under a 64 MB heap up and flat through large messages and a long paused conversation", async () => {
    const result = await runSoak({
      heapMb: 64,
      largeMessages: 16,
      largeBytes: 2 * 2 ** 20,
      followUps: 150,
      followUpBytes: 100 * 1024,
      concurrency: 2,
      env: { SOAK_MAX_BYTES: String(16 * 2 ** 20) },
    });
    expect(result.survived).toBe(true);
    // 16 MiB of tasks (by estimate) and one 4 MiB history, with room for the requests in flight.
    expect(result.maxHeapMb).toBeLessThan(48);
    expect(result.flat).toBe(true);
    // 100 KB turns against a 4 MiB history budget: about forty turns kept, the rest trimmed and counted.
    expect(result.keptHistory).toBeLessThan(100);
    expect(result.trimmedMessages + result.keptHistory).toBe(2 * 150 + 2);
  }, 180_000);
});
