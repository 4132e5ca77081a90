/**
 * The three servers of an echo scenario (ours, the peer, the ceiling), how to
 * load each one, and the scenario itself, so that the scenarios of the three
 * bindings and `bench/profile.ts` measure the same thing.
 */

import type { BenchTargets, OpenScenario, RoundsScenario, RowSpec, Sample, Side } from "../scenario.js";
import { type ChildServer, type StartOptions, startServer } from "./child-server.js";
import type { LoadResult, WindowHooks } from "./load.js";
import { ServerCpuWindow } from "./server-cpu.js";

export { ECHO_MESSAGE } from "./echo-message.js";

/** One window of load. */
export interface LoadWindow {
  /** Connections (HTTP/1.1) or calls in flight on one connection (gRPC). */
  readonly connections: number;
  readonly durationSeconds: number;
  /** 0 for none. */
  readonly warmupSeconds: number;
  readonly around?: WindowHooks;
}

export interface EchoTarget {
  /** `bench/servers/<server>.ts`. */
  readonly server: string;
  /** One window of echo calls against the running server, after checking one answer. */
  load(running: ChildServer, window: LoadWindow): Promise<LoadResult>;
}

export type EchoTargets = Readonly<Record<Side, EchoTarget>>;

/** Each server's first, unmeasured window (JIT warm-up). */
const FIRST_WARMUP_SECONDS = 2;
/** The measured window of a round, after a short re-warm (the server sat idle while the others ran). */
const WINDOW: Omit<LoadWindow, "connections"> = { durationSeconds: 3, warmupSeconds: 0.5 };
/** A latency-only window right after the measured one (the server is warm). */
const LATENCY_WINDOW: Omit<LoadWindow, "connections"> = { durationSeconds: 2, warmupSeconds: 0 };

export interface EchoRows {
  /** Connections (calls in flight for gRPC) of the throughput and CPU window. */
  readonly connections: number;
  readonly name: string;
  readonly unit: string;
  readonly targets?: BenchTargets;
  /** Targets of the server CPU per call row. */
  readonly cpuTargets?: BenchTargets;
  readonly note?: string;
  /** Also the latency p50 and p99 at these connection counts (the throughput window's own included). */
  readonly latencyAt?: readonly number[];
}

const plural = (n: number) => `${n} connection${n === 1 ? "" : "s"}`;

/** Starts the target's server and loads it for one window with its CPU measured; stops it. */
export async function measureEcho(
  target: EchoTarget,
  window: Omit<LoadWindow, "around">,
  options: StartOptions = {},
): Promise<LoadResult & { readonly cpu: NodeJS.CpuUsage }> {
  const running = await startServer(target.server, options);
  try {
    const cpu = new ServerCpuWindow(running);
    const result = await target.load(running, { ...window, around: cpu });
    return { ...result, cpu: cpu.used };
  } finally {
    await running.stop();
  }
}

/**
 * An echo scenario: per round and side, one window at `rows.connections`
 * (rate, server CPU per call and its latencies), then a short window at each
 * other connection count of `latencyAt`.
 */
export function echoScenario(name: string, targets: EchoTargets, rows: EchoRows): RoundsScenario {
  const latencyAt = rows.latencyAt ?? [];
  const specs: RowSpec[] = [
    { key: "rate", name: rows.name, unit: rows.unit, targets: rows.targets, note: rows.note },
    { key: "cpu", name: "  server CPU per call", unit: "µs", targets: rows.cpuTargets },
    ...latencyAt.flatMap((c) => [
      { key: `p50@${c}`, name: `  latency p50, ${plural(c)}`, unit: "ms" },
      { key: `p99@${c}`, name: `  latency p99, ${plural(c)}`, unit: "ms" },
    ]),
  ];
  return {
    name,
    rows: specs,
    async open(): Promise<OpenScenario> {
      const sides = Object.keys(targets) as Side[];
      const running = new Map<Side, ChildServer>();
      try {
        for (const side of sides) {
          const server = await startServer(targets[side].server);
          running.set(side, server);
          await targets[side].load(server, {
            connections: rows.connections,
            durationSeconds: FIRST_WARMUP_SECONDS,
            warmupSeconds: 0,
          });
        }
      } catch (error) {
        await Promise.all([...running.values()].map((s) => s.stop()));
        throw error;
      }
      return {
        sides,
        async measure(side) {
          const server = running.get(side) as ChildServer;
          const target = targets[side];
          const cpu = new ServerCpuWindow(server);
          const main = await target.load(server, { connections: rows.connections, ...WINDOW, around: cpu });
          const sample: Record<string, number> = { rate: main.rate, cpu: cpu.perCall(main.calls) };
          for (const c of latencyAt) {
            const result =
              c === rows.connections ? main : await target.load(server, { connections: c, ...LATENCY_WINDOW });
            if (result.p50 !== undefined) sample[`p50@${c}`] = result.p50;
            if (result.p99 !== undefined) sample[`p99@${c}`] = result.p99;
          }
          return sample satisfies Sample;
        },
        async close() {
          await Promise.all([...running.values()].map((s) => s.stop()));
        },
      };
    },
  };
}
