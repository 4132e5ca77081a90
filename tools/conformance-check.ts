/**
 * `make conformance`, the live half: serves the example agent on all three
 * bindings (JSON-RPC and HTTP+JSON on one port, gRPC on another) and runs
 * `novaos-a2a check` against it. Exits with the check's code: non-zero when a
 * MUST requirement fails. Extra arguments go to `check` (e.g. `--json`).
 */
import { createExampleAgent } from "../examples/example-agent.js";
import { exampleAgentCheckArgs } from "../src/cli/check/example-agent-args.js";
import { runCli } from "../src/cli/run.js";
import { listen } from "../src/node/index.js";

// Slow enough sentences that the story is still being told when the check cancels or subscribes to it.
const agent = createExampleAgent({ sentenceDelayMs: 500 });
const server = await listen(agent, { port: 0, grpcPort: 0 });
const controller = new AbortController();
process.once("SIGINT", () => controller.abort(new Error("interrupted")));
let code: number;
try {
  code = await runCli(["check", server.url, ...exampleAgentCheckArgs, ...process.argv.slice(2)], {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    signal: controller.signal,
  });
} finally {
  await server.close();
}
process.exit(code);
