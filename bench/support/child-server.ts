/**
 * Runs a bench server in its own process, so the load generator never shares
 * its event loop. Each server is first built the way a user ships it (tsdown:
 * one ESM file, dependencies external, no dev-time transforms), so every
 * server, ours and the peers', runs as plain compiled JavaScript. Every server
 * is started with bench/support/cpu-probe.mjs preloaded, so its CPU time can
 * be read at the edges of a measured window.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "tsdown";
import { isGcTraceLine } from "./gc-trace.js";

export interface ChildServer {
  readonly url: string;
  /** CPU time (µs) the server process has used so far, all its threads. */
  cpuUsage(): Promise<NodeJS.CpuUsage>;
  /** The next line the server prints after its port (e.g. the `stored` line of bench/servers/stored-tasks.ts). */
  readLine(): Promise<string>;
  /** V8's GC trace lines the server has printed so far (started with `--trace-gc-nvp`; gc-trace.ts). */
  readonly gcTrace: readonly string[];
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Extra node flags, e.g. `--cpu-prof`. */
  readonly execArgv?: readonly string[];
  /** Extra environment variables (e.g. `BENCH_TASKS`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Not needed any more: every server has the CPU probe. Accepted so that scenarios written before still compile. */
  readonly probe?: boolean;
  /**
   * Another checkout (with its node_modules) whose `bench/servers/<name>.ts`
   * to build and run, to compare commits (bench/compare.ts). Default: this tree.
   */
  readonly root?: string;
}

const PROBE = fileURLToPath(new URL("./cpu-probe.mjs", import.meta.url));

const THIS_TREE = fileURLToPath(new URL("../..", import.meta.url));
const built = new Map<string, Promise<string>>();

/** Builds `bench/servers/<name>.ts` of the checkout at `root` once per run; resolves to the built file. */
function buildServer(name: string, root: string): Promise<string> {
  const outDir = path.join(root, ".cache/bench");
  let file = built.get(path.join(outDir, name));
  if (!file) {
    file = build({
      entry: { [name]: path.join(root, "bench/servers", `${name}.ts`) },
      outDir,
      format: ["esm"],
      platform: "node",
      target: "node20",
      dts: false,
      sourcemap: false,
      clean: false,
      config: false,
      logLevel: "warn",
      // Packages stay imports, as in an app that depends on them; the transform's own helpers (for `using`) are inlined.
      deps: { neverBundle: [/^(?!\0|@oxc-project\/runtime\/)[^./]/] },
    }).then(() => path.join(outDir, `${name}.mjs`));
    built.set(path.join(outDir, name), file);
  }
  return file;
}

/** Starts `bench/servers/<name>.ts` (built) and waits for the port it prints. */
export async function startServer(name: string, options: StartOptions = {}): Promise<ChildServer> {
  const file = await buildServer(name, options.root ?? THIS_TREE);
  const child: ChildProcess = spawn(process.execPath, [...(options.execArgv ?? []), "--import", PROBE, file], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...options.env, NODE_ENV: "production" },
  });
  const said = new Lines();
  const probed = new Lines();
  const gcTrace: string[] = [];
  let rest = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    rest += chunk.toString("utf8");
    for (let at = rest.indexOf("\n"); at >= 0; at = rest.indexOf("\n")) {
      const line = rest.slice(0, at);
      rest = rest.slice(at + 1);
      if (isGcTraceLine(line)) gcTrace.push(line);
      else (line.startsWith("cpu ") ? probed : said).push(line);
    }
  });
  const exited = new Promise<never>((_, reject) => {
    child.once("exit", (code) => reject(new Error(`bench server ${name} exited with ${code}`)));
  });
  exited.catch(() => undefined);
  const port = Number(await Promise.race([said.next(), exited]));
  return {
    url: `http://127.0.0.1:${port}/`,
    readLine: () => Promise.race([said.next(), exited]),
    gcTrace,
    async cpuUsage() {
      child.kill("SIGUSR2");
      const [, user, system] = (await Promise.race([probed.next(), exited])).split(" ");
      return { user: Number(user), system: Number(system) };
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** Lines of the child's stdout, each taken once, in order. */
class Lines {
  readonly #ready: string[] = [];
  readonly #waiting: ((line: string) => void)[] = [];

  push(line: string): void {
    const take = this.#waiting.shift();
    if (take) take(line);
    else this.#ready.push(line);
  }

  next(): Promise<string> {
    const line = this.#ready.shift();
    return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => this.#waiting.push(resolve));
  }
}
