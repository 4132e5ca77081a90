#!/usr/bin/env node
/**
 * The `novaos-a2a` bin: the process around `runCli`. Ctrl-C aborts the
 * running command (which may offer to cancel its task); a second Ctrl-C
 * exits at once.
 */
import { createRequire } from "node:module";
import { runCli } from "./run.js";

const controller = new AbortController();
process.on("SIGINT", () => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort(new Error("interrupted"));
});

/** The package's version: its package.json is one level up from dist/cli.js, two from src/cli/main.ts. */
function packageVersion(): string {
  const require = createRequire(import.meta.url);
  for (const path of ["../package.json", "../../package.json"]) {
    try {
      const pkg = require(path) as { name?: string; version?: string };
      if (pkg.name === "@novaos/client-sdk" && pkg.version) return pkg.version;
    } catch {
      // not there: try the next level
    }
  }
  return "0.0.0";
}

const code = await runCli(
  process.argv.slice(2),
  {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    signal: controller.signal,
  },
  packageVersion(),
);
process.exitCode = code;
// Whatever is still open (an idle socket, stdin after a prompt) must not keep a finished command alive.
setTimeout(() => process.exit(code), 500).unref();
