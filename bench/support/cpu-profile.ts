/**
 * A summary of a V8 CPU profile (`node --cpu-prof`): the functions where the
 * sampled time was spent (self time), as shares of the busy time (idle
 * excluded), so that two profiles of different lengths compare.
 */
import { readFile } from "node:fs/promises";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface FrameShare {
  /** `function file:line` (the file's last two path segments). */
  readonly frame: string;
  /** Share of the busy time, 0 to 1. */
  readonly share: number;
}

export interface ProfileSummary {
  /** Sampled time the thread was not idle, ms. */
  readonly busyMs: number;
  /** Functions by self time, largest first. */
  readonly top: readonly FrameShare[];
}

export async function summariseProfile(file: string, count: number): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(file, "utf8")) as CpuProfile;
  const frames = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    frames.set(node.id, `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`);
  }
  const self = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = frames.get(id) ?? "?";
    if (frame.startsWith("(idle)")) return;
    const us = profile.timeDeltas[i] ?? 0;
    busy += us;
    self.set(frame, (self.get(frame) ?? 0) + us);
  });
  const top = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, us]) => ({ frame, share: us / busy }));
  return { busyMs: busy / 1000, top };
}
