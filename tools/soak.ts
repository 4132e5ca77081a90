/**
 * `make soak`: an agent (tools/soak-agent.ts) under a small V8 heap receives
 * large messages — hundreds of 5 MB SendMessages, then thousands of 100 KB
 * follow-ups to one paused task — and must stay up with its memory flat: the
 * byte budgets of its task store and of each task's history hold what it
 * keeps, whatever it is sent. Memory is sampled as it goes (the process's RSS
 * from /proc, and the heap in use after a full collection, asked of the
 * agent); "flat" means the highest reading of the last third of the run is
 * within 25 % (or 32 MB) of the highest of the first third.
 *
 * `runSoak` is also what test/hardening/soak.test.ts runs, reduced.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface SoakOptions {
  /** `--max-old-space-size` of the agent, in MB. */
  readonly heapMb: number;
  /** How many large messages, each a new task. */
  readonly largeMessages: number;
  readonly largeBytes: number;
  /** How many follow-ups to one paused task. */
  readonly followUps: number;
  readonly followUpBytes: number;
  /** Large messages in flight at once. */
  readonly concurrency: number;
  /** Overrides of the agent's budgets (its defaults otherwise). */
  readonly env?: Readonly<Record<string, string>>;
  /** Called with each memory sample as it is taken. */
  readonly onSample?: (sample: MemorySample) => void;
}

export interface MemorySample {
  readonly phase: "large" | "follow-ups";
  readonly done: number;
  /** Resident set of the agent process, MB. */
  readonly rssMb: number;
  /** V8 heap in use after a full collection, MB. */
  readonly heapMb: number;
}

export interface SoakResult {
  readonly survived: boolean;
  readonly samples: readonly MemorySample[];
  readonly maxRssMb: number;
  readonly maxHeapMb: number;
  /** Highest RSS of the first and of the last third of the samples. */
  readonly firstThirdRssMb: number;
  readonly lastThirdRssMb: number;
  readonly flat: boolean;
  /** History messages the paused task kept, and what its trim note counted. */
  readonly keptHistory: number;
  readonly trimmedMessages: number;
  readonly seconds: number;
}

const AGENT = fileURLToPath(new URL("./soak-agent.ts", import.meta.url));
const TSX = fileURLToPath(new URL("../node_modules/tsx/dist/esm/index.mjs", import.meta.url));

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${options.heapMb}`, "--expose-gc", "--import", TSX, AGENT],
    { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...options.env } },
  );
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  try {
    const url = `http://127.0.0.1:${await portOf(child)}/`;
    const samples: MemorySample[] = [];
    const sample = async (phase: MemorySample["phase"], done: number) => {
      const memory = JSON.parse((await send(url, { message: message("memory") })).task.artifacts[0].parts[0].text);
      const taken = { phase, done, rssMb: rssMbOf(child), heapMb: memory.heapUsed / 2 ** 20 };
      samples.push(taken);
      options.onSample?.(taken);
    };

    const large = "L".repeat(options.largeBytes);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < options.largeMessages; i = next++) {
        const reply = await send(url, { message: message(`${i} ${large}`), configuration: { historyLength: 0 } });
        if (reply.task.status.state !== "TASK_STATE_COMPLETED") throw new Error(`large message ${i} did not complete`);
        if ((i + 1) % Math.max(1, Math.floor(options.largeMessages / 10)) === 0) await sample("large", i + 1);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));

    const followUp = "F".repeat(options.followUpBytes);
    const paused = (await send(url, { message: message("pause first") })).task;
    for (let i = 1; i <= options.followUps; i++) {
      const reply = await send(url, {
        message: message(`pause ${i} ${followUp}`, paused.id),
        configuration: { historyLength: 1 },
      });
      if (reply.task.status.state !== "TASK_STATE_INPUT_REQUIRED") throw new Error(`follow-up ${i} did not pause`);
      if (i % Math.max(1, Math.floor(options.followUps / 10)) === 0) await sample("follow-ups", i);
    }
    const task = await rpc(url, "GetTask", { id: paused.id });
    const third = Math.max(1, Math.floor(samples.length / 3));
    const highest = (list: readonly MemorySample[]) => Math.max(...list.map((s) => s.rssMb));
    const firstThirdRssMb = highest(samples.slice(0, third));
    const lastThirdRssMb = highest(samples.slice(-third));
    return {
      survived: !exited,
      samples,
      maxRssMb: highest(samples),
      maxHeapMb: Math.max(...samples.map((s) => s.heapMb)),
      firstThirdRssMb,
      lastThirdRssMb,
      flat: lastThirdRssMb <= Math.max(firstThirdRssMb * 1.25, firstThirdRssMb + 32),
      keptHistory: task.history.length,
      trimmedMessages: task.metadata?.novaosHistoryTrimmed?.messages ?? 0,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    if (!exited) {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  }
}

const message = (text: string, taskId?: string) => ({
  messageId: `soak-${Math.random()}`,
  role: "ROLE_USER",
  parts: [{ text }],
  ...(taskId ? { taskId } : {}),
});

// biome-ignore lint/suspicious/noExplicitAny: replies are read loosely.
async function rpc(url: string, method: string, params: unknown): Promise<any> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "A2A-Version": "1.0" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const reply = await response.json();
  if (!reply.result) throw new Error(`${method} failed: ${JSON.stringify(reply.error).slice(0, 300)}`);
  return reply.result;
}

// biome-ignore lint/suspicious/noExplicitAny: replies are read loosely.
const send = (url: string, params: unknown): Promise<any> => rpc(url, "SendMessage", params);

function rssMbOf(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

async function portOf(child: ChildProcess): Promise<number> {
  let text = "";
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    text += chunk.toString("utf8");
    const line = /^(\d+)\n/.exec(text);
    if (line) return Number(line[1]);
  }
  throw new Error("the soak agent exited before it listened");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options: SoakOptions = {
    heapMb: 256,
    largeMessages: 300,
    largeBytes: 5 * 2 ** 20,
    followUps: 3_000,
    followUpBytes: 100 * 1024,
    concurrency: 4,
    onSample: (s) =>
      console.log(`${s.phase} ${s.done}: RSS ${s.rssMb.toFixed(0)} MB, heap after GC ${s.heapMb.toFixed(0)} MB`),
  };
  console.log(
    `soak: ${options.largeMessages} × ${options.largeBytes / 2 ** 20} MB messages (${options.concurrency} at a time), ` +
      `then ${options.followUps} × ${options.followUpBytes / 1024} KB follow-ups to one paused task, ` +
      `agent heap ${options.heapMb} MB`,
  );
  const result = await runSoak(options);
  console.log(
    `survived: ${result.survived}; RSS max ${result.maxRssMb.toFixed(0)} MB (first third ${result.firstThirdRssMb.toFixed(0)}, ` +
      `last third ${result.lastThirdRssMb.toFixed(0)}: ${result.flat ? "flat" : "GROWING"}); heap after GC max ` +
      `${result.maxHeapMb.toFixed(0)} MB; paused task kept ${result.keptHistory} messages, trimmed ${result.trimmedMessages}; ` +
      `${result.seconds.toFixed(0)} s`,
  );
  process.exit(result.survived && result.flat ? 0 : 1);
}
