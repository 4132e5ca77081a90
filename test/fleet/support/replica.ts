/**
 * One replica of a fleet agent, as its own process (run with `node --import
 * tsx`): an AgentBuilder on the PostgreSQL store and coordinator of
 * `FLEET_DATABASE_URL`, served over JSON-RPC and HTTP+JSON on one port and
 * gRPC on another. It talks to the test in JSON lines: it prints
 * `{"ready":…}` with its addresses and `{"event":…,"taskId":…}` as its skills
 * reach their steps; it reads `release <taskId>` on stdin to let a held
 * skill go on.
 */
import { createInterface } from "node:readline";
import { create } from "@bufbuild/protobuf";
import pg from "pg";
import { PartSchema } from "../../../gen/a2a_pb.js";
import { PgTaskFleet } from "../../../src/fleet/pg-task-fleet.js";
import { listen } from "../../../src/node/serve-agent.js";
import { createLogger } from "../../../src/runtime/logger.js";
import { AgentBuilder } from "../../../src/server/agent-builder.js";
import { BIG_CHUNK, CHUNKS } from "./replica-process.js";

function say(line: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const releases = new Map<string, () => void>();
const released = new Set<string>();
function releaseOf(taskId: string): Promise<void> {
  if (released.has(taskId)) return Promise.resolve();
  return new Promise((resolve) => releases.set(taskId, resolve));
}
createInterface({ input: process.stdin }).on("line", (line) => {
  const [command, taskId = ""] = line.split(" ");
  if (command !== "release") return;
  released.add(taskId);
  releases.get(taskId)?.();
});

const pool = new pg.Pool({ connectionString: process.env.FLEET_DATABASE_URL, max: 8 });
pool.on("error", () => undefined);
const fleet = new PgTaskFleet({
  pool,
  replicaId: process.env.FLEET_REPLICA_ID,
  leaseMs: Number(process.env.FLEET_LEASE_MS ?? 30_000),
  renewMs: Number(process.env.FLEET_RENEW_MS ?? 10_000),
  retryMs: 100,
  logger: createLogger({ level: "silent" }),
});
await fleet.start();

const agent = new AgentBuilder({
  name: "fleet",
  taskStore: fleet.taskStore,
  coordinator: fleet,
  logger: createLogger({ level: "silent" }),
});
const text = (value: string) => create(PartSchema, { content: { case: "text", value } });

// Writes a first chunk (stored before it says "started"), waits for its release, then streams the rest.
agent.skill("chunks", async (ctx) => {
  await ctx.taskUpdater.addArtifact([text("first")], { artifactId: "out" });
  say({ event: "started", taskId: ctx.taskId });
  await releaseOf(ctx.taskId);
  for (let i = 0; i < CHUNKS; i++)
    await ctx.taskUpdater.addArtifact([text(String(i))], { artifactId: "out", append: true });
  await ctx.taskUpdater.addArtifact([text("x".repeat(BIG_CHUNK))], { artifactId: "out", append: true });
  return { output: "done" };
});

// Holds until released or preempted; preempted, it still tries to finish (which must change nothing).
agent.skill("hold", async (ctx) => {
  await ctx.taskUpdater.addArtifact([text("holding")], { artifactId: "out" });
  say({ event: "started", taskId: ctx.taskId });
  const aborted = new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
  await Promise.race([releaseOf(ctx.taskId), aborted]);
  if (ctx.signal.aborted) {
    say({ event: "preempted", taskId: ctx.taskId, reason: (ctx.signal.reason as { reason?: string }).reason });
    await ctx.taskUpdater.complete().catch(() => undefined);
    say({ event: "gave-up", taskId: ctx.taskId });
    return { output: "finished anyway" };
  }
  return { output: `released on ${process.env.FLEET_REPLICA_ID}` };
});

const server = await listen(agent, { port: 0, grpcPort: 0 });
say({ ready: { url: server.url, grpc: `http://${server.grpcTarget}` } });
