/**
 * What a server's garbage collector did over a measured window, read from
 * V8's `--trace-gc-nvp` lines (one line of name=value pairs per collection,
 * printed on the server's stdout). It answers what a CPU profile cannot: how
 * much a call allocates, how much of it is still alive at the next young
 * collection (and so is copied), and what the young collections cost on the
 * main thread and on V8's helper threads, which a CPU profile of the main
 * thread never sees but the server's CPU time per call includes.
 */
import type { ChildServer } from "./child-server.js";
import type { WindowHooks } from "./load.js";

/** Young (scavenge) and full (mark-compact) collections over a window, per call answered in it. */
export interface GcPerCall {
  /** Bytes allocated in the young generation. */
  readonly allocatedBytes: number;
  /** Bytes still alive at a young collection (copied, or promoted to the old generation). */
  readonly survivedBytes: number;
  /** Of those, bytes promoted to the old generation. */
  readonly promotedBytes: number;
  /** Young collections' parallel work on the main thread, µs. */
  readonly scavengeMainUs: number;
  /** Young collections' parallel work on V8's helper threads, µs. */
  readonly scavengeHelpersUs: number;
  /** Full collections' pauses on the main thread, µs (their concurrent marking is not in it). */
  readonly markCompactPauseUs: number;
}

export interface GcSummary {
  readonly scavenges: number;
  readonly markCompacts: number;
  readonly perCall: GcPerCall;
}

/** Whether a line of a server's stdout is one of V8's GC trace lines (`[pid:0x…] …`). */
export function isGcTraceLine(line: string): boolean {
  return line.startsWith("[") && line.includes(" gc=");
}

function field(line: string, name: string): number {
  const at = line.indexOf(` ${name}=`);
  if (at < 0) return 0;
  const value = Number.parseFloat(line.slice(at + name.length + 2));
  return Number.isFinite(value) ? value : 0;
}

/** Sums the `--trace-gc-nvp` lines of a window and divides by the calls it answered. */
export function summariseGcTrace(lines: readonly string[], calls: number): GcSummary {
  let scavenges = 0;
  let markCompacts = 0;
  let allocated = 0;
  let survived = 0;
  let promoted = 0;
  let main = 0;
  let helpers = 0;
  let fullPause = 0;
  for (const line of lines) {
    if (line.includes(" gc=s ")) {
      scavenges++;
      allocated += field(line, "allocated");
      survived += field(line, "new_space_survived");
      promoted += field(line, "promoted");
      main += field(line, "scavenge.parallel");
      helpers += field(line, "background.scavenge.parallel");
    } else if (line.includes(" gc=mc ")) {
      markCompacts++;
      fullPause += field(line, "pause");
    }
  }
  const per = (total: number) => (calls > 0 ? total / calls : 0);
  return {
    scavenges,
    markCompacts,
    perCall: {
      allocatedBytes: per(allocated),
      survivedBytes: per(survived),
      promotedBytes: per(promoted),
      scavengeMainUs: per(main * 1000),
      scavengeHelpersUs: per(helpers * 1000),
      markCompactPauseUs: per(fullPause * 1000),
    },
  };
}

/**
 * The GC trace lines a server printed within a window whose CPU time is
 * measured: the edges are the CPU probe's answers, which come on the same
 * stdout, so every line the server printed before an answer has been read
 * when it arrives.
 */
export class GcTraceWindow implements WindowHooks {
  readonly #server: ChildServer;
  readonly #cpu: WindowHooks;
  #start = 0;
  #end: number | undefined;

  constructor(server: ChildServer, cpu: WindowHooks) {
    this.#server = server;
    this.#cpu = cpu;
  }

  async before(): Promise<void> {
    await this.#cpu.before();
    this.#start = this.#server.gcTrace.length;
  }

  async after(): Promise<void> {
    await this.#cpu.after();
    this.#end = this.#server.gcTrace.length;
  }

  /** The window's trace lines. */
  get lines(): readonly string[] {
    if (this.#end === undefined) throw new Error("the window has not been measured");
    return this.#server.gcTrace.slice(this.#start, this.#end);
  }
}
