/**
 * The three servers of an echo scenario (ours, the peer, the ceiling), how to
 * load each one, and the scenario itself, so that the scenarios of the three
 * bindings and `bench/profile.ts` measure the same thing.
 */

import type { BenchTargets, OpenScenario, RoundsScenario, RowSpec, Sample, Side } from "../scenario.js";
import { type ChildServer, type StartOptions, startServer } from "./child-server.js";
import { type GcSummary, GcTraceWindow, summariseGcTrace } from "./gc-trace.js";
import type { LoadResult, WindowHooks } from "./load.js";
import { formatNumber } from "./report.js";
import { ServerCpuWindow } from "./server-cpu.js";
import { spread } from "./stats.js";

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
const FIRST_WARMUP_SECONDS = 1.5;
/** The measured window of a round, after a short re-warm (the server sat idle while the others ran). */
const WINDOW: Omit<LoadWindow, "connections"> = { durationSeconds: 2.5, warmupSeconds: 0.5 };
/** A latency-only window right after the measured one (the server is warm). */
const LATENCY_WINDOW: Omit<LoadWindow, "connections"> = { durationSeconds: 1.5, warmupSeconds: 0 };

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
  /**
   * A second ceiling that does the A2A work by hand (decode, make and keep the
   * task, encode it) with no framework: its server CPU per call is measured
   * right after the ceiling's and set beside ours in a row of its own.
   */
  readonly sameWork?: { readonly target: EchoTarget; readonly what: string };
}

const plural = (n: number) => `${n} connection${n === 1 ? "" : "s"}`;

/** A server's first, unmeasured window of `target`'s load (JIT warm-up). */
export function warmUp(target: EchoTarget, server: ChildServer, connections: number): Promise<LoadResult> {
  return target.load(server, { connections, durationSeconds: FIRST_WARMUP_SECONDS, warmupSeconds: 0 });
}

/** One measured window of `target`'s load, as a round of a scenario takes it: the result and the server CPU per call. */
export async function measuredWindow(
  target: EchoTarget,
  server: ChildServer,
  connections: number,
): Promise<{ readonly result: LoadResult; readonly cpu: number }> {
  const cpu = new ServerCpuWindow(server);
  const result = await target.load(server, { connections, ...WINDOW, around: cpu });
  return { result, cpu: cpu.perCall(result.calls) };
}

/** `rates` and `cpus` of one server's rounds as "N calls/s (min–max), server CPU X µs per call (min–max)". */
export function rateAndCpu(rates: readonly number[], cpus: readonly number[]): string {
  const rate = spread(rates);
  const cpu = spread(cpus);
  return (
    `${formatNumber(rate.median)} calls/s (${formatNumber(rate.min)}–${formatNumber(rate.max)}), ` +
    `server CPU ${cpu.median.toFixed(1)} µs per call (${cpu.min.toFixed(1)}–${cpu.max.toFixed(1)})`
  );
}

export interface MeasureOptions extends StartOptions {
  /** Also trace the server's garbage collections (`--trace-gc-nvp`) and summarise the window's (gc-trace.ts). */
  readonly traceGc?: boolean;
}

/** Starts the target's server and loads it for one window with its CPU measured; stops it. */
export async function measureEcho(
  target: EchoTarget,
  window: Omit<LoadWindow, "around">,
  options: MeasureOptions = {},
): Promise<LoadResult & { readonly cpu: NodeJS.CpuUsage; readonly gc?: GcSummary }> {
  const { traceGc, ...start } = options;
  const running = await startServer(
    target.server,
    traceGc ? { ...start, execArgv: [...(start.execArgv ?? []), "--trace-gc-nvp"] } : start,
  );
  try {
    const cpu = new ServerCpuWindow(running);
    const gc = traceGc ? new GcTraceWindow(running, cpu) : undefined;
    const result = await target.load(running, { ...window, around: gc ?? cpu });
    return { ...result, cpu: cpu.used, ...(gc ? { gc: summariseGcTrace(gc.lines, result.calls) } : {}) };
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
    ...(rows.sameWork
      ? [{ key: "cpuWork", name: `  server CPU per call, ceiling ${rows.sameWork.what}`, unit: "µs" }]
      : []),
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
      const all: Record<string, EchoTarget> = {
        ...targets,
        ...(rows.sameWork ? { sameWork: rows.sameWork.target } : {}),
      };
      const running = new Map<string, ChildServer>();
      try {
        for (const [key, target] of Object.entries(all)) {
          const server = await startServer(target.server);
          running.set(key, server);
          await warmUp(target, server, rows.connections);
        }
      } catch (error) {
        await Promise.all([...running.values()].map((s) => s.stop()));
        throw error;
      }
      /** One measured window of `key`'s server: the result and its server CPU per call. */
      const window = async (key: string) => {
        const server = running.get(key) as ChildServer;
        return { server, ...(await measuredWindow(all[key] as EchoTarget, server, rows.connections)) };
      };
      return {
        sides,
        async measure(side) {
          const { server, result: main, cpu } = await window(side);
          const sample: Record<string, number> = { rate: main.rate, cpu };
          if (rows.sameWork && side === "ours") sample.cpuWork = cpu;
          if (rows.sameWork && side === "ceiling") sample.cpuWork = (await window("sameWork")).cpu;
          for (const c of latencyAt) {
            const result =
              c === rows.connections ? main : await targets[side].load(server, { connections: c, ...LATENCY_WINDOW });
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
