/**
 * `npx tsx bench/task-store-save.ts [baseline-dir]`: what the in-memory task
 * store costs the SendMessage hot path, in process. One "request" is what the
 * harness does for an echo: a new live task, the user message, WORKING, the
 * output artifact, COMPLETED with the reply (three saves), into a full store
 * of 10,000 tasks (so every request also evicts one). With a baseline
 * directory (a checkout of another commit), its store and live task run in
 * interleaved rounds beside this tree's, and both are printed.
 *
 * Prints CPU ns (user + system, so other load on the machine counts less than
 * in wall time) per request per round, and the median and range of each.
 */
import { TaskState } from "../gen/a2a_pb.js";

interface Modules {
  readonly name: string;
  readonly store: new () => unknown;
  readonly live: new (task: unknown, scope: string, store: unknown, writer: unknown) => LiveLike;
  readonly literals: typeof import("../src/server/message-literals.js");
}

interface LiveLike {
  appendHistory(message: unknown): void;
  writeStatus(state: TaskState, message?: unknown): unknown;
  writeArtifact(write: unknown): unknown;
}

async function load(name: string, root: string): Promise<Modules> {
  const store = await import(`${root}/src/server/task-store.ts`);
  const live = await import(`${root}/src/server/live-task.ts`);
  const literals = await import(`${root}/src/server/message-literals.ts`);
  return { name, store: store.InMemoryTaskStore, live: live.LiveTask, literals };
}

const REQUESTS = 20_000;
const ROUNDS = 7;

function round(m: Modules, store: unknown, offset: number): number {
  const { newTask, agentMessage, textPart } = m.literals;
  const input = agentMessage("m", "", "", [textPart("hello from the bench, a short echo of about sixty chars")]);
  const started = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) {
    const id = `task-${offset + i}`;
    const live = new m.live(newTask(id, `ctx-${offset + i}`), "1:", store, { owner: "", version: 0 });
    live.appendHistory(input);
    live.writeStatus(TaskState.WORKING);
    const out = [textPart("hello from the bench, a short echo of about sixty chars")];
    live.writeArtifact({
      artifact: {
        $typeName: "lf.a2a.v1.Artifact",
        artifactId: "a",
        name: "output",
        description: "",
        parts: out,
        extensions: [],
      },
      owned: true,
    });
    live.writeStatus(TaskState.COMPLETED, agentMessage(`r${i}`, id, "", out));
  }
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / REQUESTS;
}

const here = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const variants = [await load("this tree", here)];
if (process.argv[2]) variants.push(await load(`baseline ${process.argv[2]}`, process.argv[2]));

const stores = variants.map((m) => new m.store());
// Fill each store to its cap first, so every measured request evicts.
for (const [i, m] of variants.entries()) round(m, stores[i], 0);
const results = variants.map(() => [] as number[]);
for (let r = 1; r <= ROUNDS; r++) {
  for (const [i, m] of variants.entries()) results[i]?.push(round(m, stores[i], r * REQUESTS));
}
for (const [i, m] of variants.entries()) {
  const sorted = [...(results[i] as number[])].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1] as number;
  console.log(
    `${m.name}: ${Math.round(median)} CPU ns/request median (${Math.round(sorted[0] as number)}–${Math.round(sorted[sorted.length - 1] as number)}), rounds ${results[i]?.map(Math.round).join(" ")}`,
  );
}
