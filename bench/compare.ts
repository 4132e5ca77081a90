/**
 * Which commit made an echo row slower: `npx tsx bench/compare.ts <row>
 * <checkout>… [--rounds N]` runs the "ours" server of an echo row (`jsonrpc`,
 * `http-json`, `grpc`) from each checkout and from this tree, each built
 * from its own sources, and loads them in interleaved rounds (32
 * connections, 2.5 s windows), so background load hits every commit alike.
 * Prints per checkout the median and range of the rate and of the server CPU
 * per call, and the CPU per call against this tree's, round by round.
 *
 * A checkout is a directory holding another commit with its node_modules:
 * `git worktree add --detach /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/`.
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ECHO_ROWS } from "./scenarios/echo-rows.js";
import { type ChildServer, startServer } from "./support/child-server.js";
import { measuredWindow, rateAndCpu, warmUp } from "./support/echo-targets.js";
import { spread } from "./support/stats.js";

const CONNECTIONS = 32;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: "string" } } });
const [rowName = "", ...checkouts] = positionals;
const target = ECHO_ROWS[rowName]?.ours;
const rounds = Number(values.rounds ?? 5);
if (!target || checkouts.length === 0 || !Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write(`usage: bench/compare.ts <${Object.keys(ECHO_ROWS).join("|")}> <checkout>… [--rounds N]\n`);
  process.exit(2);
}

const trees = [...checkouts, fileURLToPath(new URL("..", import.meta.url))];
const servers: ChildServer[] = [];
try {
  for (const root of trees) {
    const server = await startServer(target.server, { root });
    servers.push(server);
    await warmUp(target, server, CONNECTIONS);
  }
  const rates = trees.map(() => [] as number[]);
  const cpus = trees.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (const [i, server] of servers.entries()) {
      const { result, cpu } = await measuredWindow(target, server, CONNECTIONS);
      rates[i]?.push(result.rate);
      cpus[i]?.push(cpu);
    }
  }
  const ours = cpus.at(-1) as number[];
  for (const [i, root] of trees.entries()) {
    const ratio = spread((cpus[i] as number[]).map((c, r) => c / (ours[r] as number)));
    process.stdout.write(
      `${i === trees.length - 1 ? "this tree" : root}: ${rateAndCpu(rates[i] as number[], cpus[i] as number[])}, ` +
        `×${ratio.median.toFixed(2)} this tree's (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)})\n`,
    );
  }
} finally {
  await Promise.all(servers.map((s) => s.stop()));
}
