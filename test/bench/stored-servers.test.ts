/**
 * The ListTasks rows' servers (bench/support/stored-servers.ts) run a store of
 * a million tasks with the young generation docs/building-agents.md advises
 * for very large stores (S302), and smaller stores with Node's default.
 */
import { describe, expect, it } from "vitest";
import { storedServerFlags } from "../../bench/support/stored-servers.js";

describe("stored-task servers", () => {
  it("run a store of 1,000,000 tasks with a 64 MB young generation, as advised for very large stores", () => {
    expect(storedServerFlags(1_000_000)).toContain("--max-semi-space-size=64");
  });

  it("run the 10,000 and 100,000 task stores with V8's default young generation", () => {
    for (const count of [10_000, 100_000]) {
      expect(storedServerFlags(count).some((flag) => flag.startsWith("--max-semi-space-size"))).toBe(false);
    }
  });
});
