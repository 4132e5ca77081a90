/**
 * The ListTasks rows' servers (bench/support/stored-servers.ts) run a store of
 * a million tasks with the young generation docs/building-agents.md advises
 * for very large stores (S302), and smaller stores with Node's default.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { storedServerFlags } from "../../bench/support/stored-servers.js";

/**
 * Prints the young generation's size (MB) before and after a collection that
 * reduces memory, the kind V8's memory reducer makes once a server has idled
 * (a heap snapshot makes one on demand). With the maximum alone, the young
 * generation starts at 1 MB, grows only as objects survive, and such a
 * collection shrinks it back to 1 MB.
 */
const YOUNG_GENERATION_THROUGH_A_REDUCING_GC = `
import v8 from "node:v8";
const young = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size / 2 ** 20;
const before = young();
const snapshot = v8.getHeapSnapshot();
snapshot.resume();
await new Promise((resolve) => snapshot.on("end", resolve));
console.log(JSON.stringify({ before, after: young() }));
`;

describe("stored-task servers", () => {
  it("run a store of 1,000,000 tasks with a 64 MB young generation, as advised for very large stores", () => {
    expect(storedServerFlags(1_000_000)).toEqual(
      expect.arrayContaining(["--max-semi-space-size=64", "--min-semi-space-size=64"]),
    );
  });

  it("keep that young generation at 64 MB through a collection that reduces memory, as one made while idle does", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      ...storedServerFlags(1_000_000),
      "--input-type=module",
      "--eval",
      YOUNG_GENERATION_THROUGH_A_REDUCING_GC,
    ]);
    expect(JSON.parse(stdout)).toEqual({ before: 64, after: 64 });
  });

  it("run the 10,000 and 100,000 task stores with V8's default young generation", () => {
    for (const count of [10_000, 100_000]) {
      expect(storedServerFlags(count).some((flag) => flag.includes("semi-space-size"))).toBe(false);
    }
  });
});
