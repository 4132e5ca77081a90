/**
 * The CPU time a bench server process spends over a measured window (user and
 * system, every thread: GC helpers and libuv included), read from the server
 * itself at the window's edges (bench/support/cpu-probe.mjs). Divided by the
 * calls of the window, it is the row's server CPU per call: what a call
 * costs, whether or not the machine's other load let the server run flat out.
 */
import type { ChildServer } from "./child-server.js";
import type { WindowHooks } from "./load.js";

export class ServerCpuWindow implements WindowHooks {
  readonly #server: ChildServer;
  #start: NodeJS.CpuUsage | undefined;
  #used: NodeJS.CpuUsage | undefined;

  constructor(server: ChildServer) {
    this.#server = server;
  }

  async before(): Promise<void> {
    this.#start = await this.#server.cpuUsage();
  }

  async after(): Promise<void> {
    const end = await this.#server.cpuUsage();
    const start = this.#start ?? end;
    this.#used = { user: end.user - start.user, system: end.system - start.system };
  }

  /** CPU time used in the window, µs. */
  get used(): NodeJS.CpuUsage {
    if (!this.#used) throw new Error("the window has not been measured");
    return this.#used;
  }

  /** Server CPU µs per call over the window. */
  perCall(calls: number): number {
    const { user, system } = this.used;
    return (user + system) / calls;
  }
}
