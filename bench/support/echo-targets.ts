/**
 * The three servers of an echo row (ours, the peer, the ceiling) and how to
 * load each one, so the scenario and `bench/profile.ts` measure the same thing.
 */

import type { BenchRow, BenchScenario } from "../scenario.js";
import { type ChildServer, type StartOptions, startServer } from "./child-server.js";
import type { WindowHooks } from "./load.js";

/** The message every echo row sends (ProtoJSON): a text part the echo skill returns. */
export const ECHO_MESSAGE = {
  messageId: "m-1",
  role: "ROLE_USER",
  parts: [{ text: "Hello, bench! This is the echo payload." }],
  metadata: { skillId: "echo" },
};

export interface EchoTarget {
  /** `bench/servers/<server>.ts`. */
  readonly server: string;
  /** Calls per second against the running server, after checking one answer. */
  load(running: ChildServer, around?: WindowHooks): Promise<number>;
}

export interface EchoTargets {
  readonly ours: EchoTarget;
  readonly peer: EchoTarget;
  readonly ceiling: EchoTarget;
}

/** Starts the target's server, loads it, stops it. */
export async function measureEcho(
  target: EchoTarget,
  options: StartOptions = {},
  around?: (running: ChildServer) => WindowHooks,
): Promise<number> {
  const running = await startServer(target.server, options);
  try {
    return await target.load(running, around?.(running));
  } finally {
    await running.stop();
  }
}

/** The scenario of one echo row: ours, the peer and the ceiling measured one after the other. */
export function echoScenario(
  name: string,
  targets: EchoTargets,
  row: Omit<BenchRow, "ours" | "peer" | "ceiling">,
): BenchScenario {
  return {
    name,
    async run() {
      const ours = await measureEcho(targets.ours);
      const peer = await measureEcho(targets.peer);
      const ceiling = await measureEcho(targets.ceiling);
      return [{ ...row, ours, peer, ceiling }];
    },
  };
}
