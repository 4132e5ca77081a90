/**
 * Starts replica.ts as a child process and reads what it says: its addresses
 * once ready, and its skills' steps, awaited by the test (no sleeps).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** The skill `chunks` writes this many numbered chunks after its release, then one of BIG_CHUNK characters. */
export const CHUNKS = 20;
export const BIG_CHUNK = 20_000;

export interface ReplicaProcess {
  readonly id: string;
  /** JSON-RPC and HTTP+JSON base URL. */
  readonly url: string;
  /** gRPC base URL. */
  readonly grpc: string;
  readonly child: ChildProcess;
  /** Resolves with the first line saying `event` for `taskId` (seen already or to come). */
  saw(event: string, taskId: string): Promise<Record<string, unknown>>;
  release(taskId: string): void;
  /** SIGKILL, and resolves once the process is gone. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL("./replica.ts", import.meta.url));

export async function startReplica(
  databaseUrl: string,
  id: string,
  env: Record<string, string> = {},
): Promise<ReplicaProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT], {
    env: { ...process.env, ...env, FLEET_DATABASE_URL: databaseUrl, FLEET_REPLICA_ID: id },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: {
    match: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }[] = [];
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (text) => {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text);
    } catch {
      return;
    }
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (!waiter.match(line)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  const wait = (match: (line: Record<string, unknown>) => boolean) => {
    const seen = lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      waiters.push({ match, resolve });
      void exited.then(() => reject(new Error(`replica ${id} exited`)));
    });
  };
  const ready = (await wait((line) => line.ready !== undefined)).ready as { url: string; grpc: string };
  return {
    id,
    url: ready.url,
    grpc: ready.grpc,
    child,
    saw: (event, taskId) => wait((line) => line.event === event && line.taskId === taskId),
    release: (taskId) => child.stdin?.write(`release ${taskId}\n`),
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await exited;
    },
  };
}
