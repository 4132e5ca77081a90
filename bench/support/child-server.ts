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
  stop(): Promise<void>;
}

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
export async function startServer(name: string): Promise<ChildServer> {
  const file = await buildServer(name);
  const child: ChildProcess = spawn(process.execPath, [file], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve(Number(line));
    });
    child.once("exit", (code) => reject(new Error(`bench server ${name} exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
