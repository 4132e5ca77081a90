/**
 * The GC summary of `bench/profile.ts --gc` (bench/support/gc-trace.ts): V8's
 * `--trace-gc-nvp` lines, told apart from a server's other output, summed
 * per kind of collection and divided by the calls of the window.
 */
import { describe, expect, it } from "vitest";
import { isGcTraceLine, summariseGcTrace } from "../../bench/support/gc-trace.js";

const scavenge = (allocated: number, survived: number, promoted: number, main: number, helpers: number) =>
  `[31568:0x2ce5eca0]      102 ms: pause=1.1 mutator=95.4 gc=s reduce_memory=0 scavenge=0.92 ` +
  `scavenge.roots=0.15 scavenge.parallel=${main} background.scavenge.parallel=${helpers} ` +
  `allocated=${allocated} promoted=${promoted} new_space_survived=${survived} nodes_promoted=7`;
const markCompact = (pause: number) =>
  `[31568:0x2ce5eca0]      408 ms: pause=${pause} mutator=12.1 gc=mc reduce_memory=0 mark=5.10 promoted=99`;

describe("GC trace summary", () => {
  it("tells V8's trace lines from a server's own output", () => {
    expect(isGcTraceLine(scavenge(1, 1, 1, 1, 1))).toBe(true);
    expect(isGcTraceLine(markCompact(1))).toBe(true);
    expect(isGcTraceLine("41235")).toBe(false);
    expect(isGcTraceLine("cpu 1200 300")).toBe(false);
    expect(isGcTraceLine("stored 10000 2470")).toBe(false);
  });

  it("sums young collections' fields and full collections' pauses, per call", () => {
    const summary = summariseGcTrace(
      [
        scavenge(16_000_000, 1_600_000, 1_400_000, 5.5, 7.25),
        scavenge(16_000_000, 400_000, 200_000, 1.5, 0.75),
        markCompact(8),
      ],
      1000,
    );
    expect(summary.scavenges).toBe(2);
    expect(summary.markCompacts).toBe(1);
    expect(summary.perCall).toEqual({
      allocatedBytes: 32_000,
      survivedBytes: 2_000,
      promotedBytes: 1_600,
      // The main thread's share is `scavenge.parallel`, never the helpers' `background.scavenge.parallel`.
      scavengeMainUs: 7,
      scavengeHelpersUs: 8,
      // A full collection's own `promoted` is not a young collection's.
      markCompactPauseUs: 8,
    });
  });

  it("reads nothing from a window without calls", () => {
    expect(summariseGcTrace([scavenge(1, 1, 1, 1, 1)], 0).perCall.allocatedBytes).toBe(0);
  });
});
