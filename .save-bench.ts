import { InMemoryTaskStore as Old } from "/tmp/fleet/old/task-store.ts";
import { InMemoryTaskStore as New } from "./src/server/task-store.ts";
import { newTask } from "./src/server/message-literals.ts";
const N = 300_000;
const tasks = Array.from({ length: N }, (_, i) => newTask(`task-${i}-${Math.random()}`, "ctx"));
function runOld() { const s = new Old(); const t0 = performance.now(); for (const t of tasks) { s.save(t, "s"); s.save(t, "s"); s.save(t, "s"); } return performance.now() - t0; }
function runNew() { const s = new New(); const t0 = performance.now(); for (const t of tasks) { const w = { owner: "", version: 0 }; s.save(t, "s", w); s.save(t, "s", w); s.save(t, "s", w); } return performance.now() - t0; }
const o: number[] = [], n: number[] = [];
for (let r = 0; r < 10; r++) { if (r % 2) { o.push(runOld()); n.push(runNew()); } else { n.push(runNew()); o.push(runOld()); } }
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1];
console.log("old ns/save", (med(o)! * 1e6 / N / 3).toFixed(1), "new ns/save", (med(n)! * 1e6 / N / 3).toFixed(1));
