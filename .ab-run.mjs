import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
const dirs = process.argv.slice(2);
const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "Hello, bench! This is the echo payload." }], metadata: { skillId: "echo" } } } });
const headers = { "A2A-Version": "1.0", "content-type": "application/json" };
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" "); return (Number(f[11]) + Number(f[12])) * 10000; };
async function start(dir) {
  const child = spawn(process.execPath, [`${dir}/.cache/ab/ours.mjs`], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, NODE_ENV: "production" } });
  const port = await new Promise((r) => child.stdout.once("data", (d) => r(String(d).trim().split("\n")[0])));
  return { child, url: `http://127.0.0.1:${port}/` };
}
const load = (url, duration) => new Promise((res, rej) => autocannon({ url, method: "POST", body, headers, connections: 32, duration }, (e, r) => (e ? rej(e) : res(r))));
const servers = [];
for (const d of dirs) { const s = await start(d); await load(s.url, 1.5); servers.push(s); }
const res = Object.fromEntries(dirs.map((d) => [d, []]));
for (let round = 0; round < Number(process.env.ROUNDS ?? 5); round++) {
  for (let i = 0; i < dirs.length; i++) {
    const s = servers[i];
    await load(s.url, 0.5);
    const c0 = cpu(s.child.pid);
    const r = await load(s.url, 2.5);
    const c1 = cpu(s.child.pid);
    if (r.non2xx || r.errors) console.log("ERR", dirs[i], r.non2xx, r.errors);
    res[dirs[i]].push({ rps: r.requests.total / 2.5, us: (c1 - c0) / r.requests.total });
  }
}
const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const d of dirs) console.log(d.padEnd(22), "req/s", Math.round(med(res[d].map((x) => x.rps))), "µs/call", med(res[d].map((x) => x.us)).toFixed(1), JSON.stringify(res[d].map((x) => x.us.toFixed(0))));
for (const s of servers) s.child.kill();
