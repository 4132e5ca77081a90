/**
 * Bench server: the bench agent (ours-agent.ts) as one replica of a fleet on
 * the PostgreSQL database of `BENCH_DATABASE_URL` (PgTaskFleet: its store and
 * coordinator), on node:http; without it, the same agent on the in-memory
 * store. Adds the skill `ticks` (input: a count): that many artifact chunks,
 * one every 2 ms, each carrying the wall-clock time (ms) just before it is
 * written, for the cross-replica subscribe latency. Prints its port.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { PgTaskFleet } from "../../src/fleet/pg-task-fleet.js";
import { nodeHandler } from "../../src/node/index.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { textPart } from "../../src/server/task-updater.js";

const url = process.env.BENCH_DATABASE_URL;
const pool = url ? new pg.Pool({ connectionString: url, max: 16 }) : undefined;
pool?.on("error", () => undefined);
const fleet = pool ? new PgTaskFleet({ pool, logger: createLogger({ level: "silent" }) }) : undefined;
await fleet?.start();

const agent = new AgentBuilder({
  name: "bench-agent",
  version: "1.0.0",
  logger: createLogger({ level: "silent" }),
  auth: "none",
  ...(fleet ? { taskStore: fleet.taskStore, coordinator: fleet } : {}),
});
agent.skill("echo", async (_ctx, text) => ({ output: text }));
agent.skill("ticks", async (ctx, text) => {
  // Time for the subscriber to open its stream; the ticks before it are in its snapshot and not counted.
  await sleep(500);
  for (let i = 0; i < Number(text); i++) {
    await sleep(2);
    await ctx.taskUpdater.addArtifact([textPart(String(performance.timeOrigin + performance.now()))], {
      artifactId: "ticks",
      append: i > 0,
    });
  }
  return { output: "done" };
});

const server = http.createServer(nodeHandler(agent));
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void fleet
    ?.close()
    .then(() => pool?.end())
    .finally(() => process.exit(0));
});
