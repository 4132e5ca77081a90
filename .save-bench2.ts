import { InMemoryTaskStore as Old } from "/tmp/fleet/old/task-store.ts";
import { InMemoryTaskStore as New } from "./src/server/task-store.ts";
import { newTask } from "./src/server/message-literals.ts";
const N = 200_000;
const tasks = Array.from({ length: N }, (_, i) => newTask(`task-${i}-${Math.random()}`, "ctx"));
const writers = tasks.map(() => ({ owner: "", version: 0 }));
function ins(kind: string) {
  const s: any = kind === "old" ? new Old() : new New();
  for (const w of writers) w.version = 0;
  const t0 = performance.now();
  if (kind === "old") for (const t of tasks) s.save(t, "s"); else for (let i = 0; i < N; i++) s.save(tasks[i], "s", writers[i]);
  const t1 = performance.now();
  // updates of the last 10k
  const start = N - 10000;
  for (let r = 0; r < 20; r++) {
    if (kind === "old") for (let i = start; i < N; i++) s.save(tasks[i], "s"); else for (let i = start; i < N; i++) s.save(tasks[i], "s", writers[i]);
  }
  const t2 = performance.now();
  return [(t1 - t0) * 1e6 / N, (t2 - t1) * 1e6 / 200000];
}
const res: Record<string, number[][]> = { old: [], new: [] };
for (let r = 0; r < 10; r++) for (const k of r % 2 ? ["old", "new"] : ["new", "old"]) res[k]!.push(ins(k));
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]!.toFixed(0);
for (const k of ["old", "new"]) console.log(k, "insert ns", med(res[k]!.map((x) => x[0]!)), "update ns", med(res[k]!.map((x) => x[1]!)));
