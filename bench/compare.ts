/**
 * Which commit made an echo row slower: `npx tsx bench/compare.ts <row>
 * <checkout>… [--rounds N]` runs the "ours" server of an echo row (`jsonrpc`,
 * `http-json`, `grpc`) from each checkout and from this tree, each built
 * from its own sources, and loads them in interleaved rounds (32
 * connections, 2.5 s windows), so background load hits every commit alike.
 * Prints per checkout the median and range of the rate and of the server CPU
 * per call, and the CPU per call against this tree's, round by round.
 *
 * The row `fairness` runs the fairness scenario (bench/scenarios/fairness.ts)
 * the same way and prints per checkout the echo's share beside the stream,
 * its p99 there, and the rate of a 20,000-event stream read alone after each
 * round.
 *
 * A checkout is a directory holding another commit with its node_modules:
 * `git worktree add --detach /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/`.
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ECHO_ROWS } from "./scenarios/echo-rows.js";
import { type FairnessRound, fairnessRound, warmForFairness } from "./scenarios/fairness.js";
import { eventsPerSecond } from "./scenarios/jsonrpc-stream.js";
import { type ChildServer, startServer } from "./support/child-server.js";
import { type EchoTarget, measuredWindow, rateAndCpu, warmUp } from "./support/echo-targets.js";
import { formatSpread } from "./support/report.js";
import { spread } from "./support/stats.js";

const CONNECTIONS = 32;
/** The stream read alone after each fairness round. */
const LONE_STREAM_EVENTS = 20_000;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: "string" } } });
const [rowName = "", ...checkouts] = positionals;
const target = ECHO_ROWS[rowName]?.ours;
const rounds = Number(values.rounds ?? 5);
if ((!target && rowName !== "fairness") || checkouts.length === 0 || !Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write(
    `usage: bench/compare.ts <${[...Object.keys(ECHO_ROWS), "fairness"].join("|")}> <checkout>… [--rounds N]\n`,
  );
  process.exit(2);
}

const trees = [...checkouts, fileURLToPath(new URL("..", import.meta.url))];
const treeName = (i: number) => (i === trees.length - 1 ? "this tree" : trees[i]);
/** Interleaved echo windows: rate and server CPU per call, against this tree's. */
async function compareEcho(target: EchoTarget, servers: readonly ChildServer[]): Promise<void> {
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
  for (const i of trees.keys()) {
    const ratio = spread((cpus[i] as number[]).map((c, r) => c / (ours[r] as number)));
    process.stdout.write(
      `${treeName(i)}: ${rateAndCpu(rates[i] as number[], cpus[i] as number[])}, ` +
        `×${ratio.median.toFixed(2)} this tree's (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)})\n`,
    );
  }
}

/** Interleaved fairness rounds, each followed by a stream read alone. */
async function compareFairness(servers: readonly ChildServer[]): Promise<void> {
  const read = trees.map(() => [] as (FairnessRound & { lone: number })[]);
  for (let round = 0; round < rounds; round++) {
    for (const [i, server] of servers.entries()) {
      const fair = await fairnessRound(server);
      read[i]?.push({ ...fair, lone: await eventsPerSecond(server, LONE_STREAM_EVENTS) });
    }
  }
  for (const [i, tree] of read.entries()) {
    const of = (key: "share" | "p99beside" | "lone") => formatSpread(spread(tree.map((r) => r[key])));
    process.stdout.write(
      `${treeName(i)}: echo beside the stream ${of("share")} % of alone, p99 ${of("p99beside")} ms; ` +
        `${LONE_STREAM_EVENTS.toLocaleString("en")}-event stream alone ${of("lone")} events/s\n`,
    );
  }
}

const servers: ChildServer[] = [];
try {
  for (const root of trees) {
    const server = await startServer(target?.server ?? "ours", { root });
    servers.push(server);
    await (target ? warmUp(target, server, CONNECTIONS) : warmForFairness(server));
  }
  await (target ? compareEcho(target, servers) : compareFairness(servers));
} finally {
  await Promise.all(servers.map((s) => s.stop()));
}
