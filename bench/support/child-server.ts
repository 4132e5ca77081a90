/**
 * Runs a bench server in its own process, so the load generator never shares
 * its event loop. Each server is first built the way a user ships it (tsdown:
 * one ESM file, dependencies external, no dev-time transforms), so every
 * server, ours and the peers', runs as plain compiled JavaScript.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { build } from "tsdown";

export interface ChildServer {
  readonly url: string;
  /** CPU time (µs) the server has used so far; needs the `probe` start option. */
  cpuUsage(): Promise<NodeJS.CpuUsage>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Extra node flags, e.g. `--cpu-prof`. */
  readonly execArgv?: readonly string[];
  /** Preload bench/support/cpu-probe.mjs: `cpuUsage()` works and SIGTERM exits normally (profiles are written). */
  readonly probe?: boolean;
}

const PROBE = fileURLToPath(new URL("./cpu-probe.mjs", import.meta.url));

const OUT_DIR = fileURLToPath(new URL("../../.cache/bench", import.meta.url));
const built = new Map<string, Promise<string>>();

/** Builds `bench/servers/<name>.ts` once per run; resolves to the built file. */
function buildServer(name: string): Promise<string> {
  let file = built.get(name);
  if (!file) {
    file = build({
      entry: { [name]: fileURLToPath(new URL(`../servers/${name}.ts`, import.meta.url)) },
      outDir: OUT_DIR,
      format: ["esm"],
      platform: "node",
      target: "node20",
      dts: false,
      sourcemap: false,
      clean: false,
      config: false,
      logLevel: "warn",
      // Packages stay imports, as in an app that depends on them.
      deps: { neverBundle: [/^[^./]/] },
    }).then(() => `${OUT_DIR}/${name}.mjs`);
    built.set(name, file);
  }
  return file;
}

/** Starts `bench/servers/<name>.ts` (built) and waits for the port it prints. */
export async function startServer(name: string, options: StartOptions = {}): Promise<ChildServer> {
  const file = await buildServer(name);
  const flags = [...(options.execArgv ?? []), ...(options.probe ? ["--import", PROBE] : [])];
  const child: ChildProcess = spawn(process.execPath, [...flags, file], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  const lines = readLines(child);
  const port = await new Promise<number>((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`bench server ${name} exited with ${code}`));
    child.once("exit", exited);
    void lines.next().then((line) => {
      child.off("exit", exited);
      resolve(Number(line));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    async cpuUsage() {
      if (!options.probe) throw new Error("cpuUsage() needs startServer(name, { probe: true })");
      child.kill("SIGUSR2");
      for (;;) {
        const line = await lines.next();
        const match = /^cpu (\d+) (\d+)$/.exec(line);
        if (match) return { user: Number(match[1]), system: Number(match[2]) };
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** The child's stdout, one line per `next()`. */
function readLines(child: ChildProcess): { next(): Promise<string> } {
  const ready: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let rest = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    rest += chunk.toString("utf8");
    for (let at = rest.indexOf("\n"); at >= 0; at = rest.indexOf("\n")) {
      const line = rest.slice(0, at);
      rest = rest.slice(at + 1);
      const take = waiting.shift();
      if (take) take(line);
      else ready.push(line);
    }
  });
  return {
    next: () => {
      const line = ready.shift();
      return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}
