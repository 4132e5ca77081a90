/**
 * The universal entries run where the README says: in Bun, Deno, workerd and
 * headless Chromium, each started as a real process that drives a real A2A
 * exchange over loopback sockets with the built package (no Node shims, no
 * source changes). The runtimes come from npm as packaged binaries (exact
 * versions below), Chromium from Debian's `chromium` package. workerd and
 * the page take a bundle, made with esbuild as Wrangler and web bundlers
 * make theirs (browser fields, the `workerd`/`worker` conditions).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { nodeHandler } from "../../src/node/index.js";
import { runtimeAgent } from "./fixtures/runtimes/agent.js";
import { exchange } from "./fixtures/runtimes/exchange.js";
import { consumerProject, npmBinary } from "./support/package.js";

const BUN = "@oven/bun-linux-x64@1.4.5";
const DENO = "@deno/linux-x64-glibc@2.9.6";
const WORKERD = "@cloudflare/workerd-linux-64@1.20261117.1";
const FIXTURES = path.join(import.meta.dirname, "fixtures/runtimes");

/** What `exchange()` prints when an agent on `server` answers a client on `caller`. */
const exchanged = (server: string, caller: string) =>
  ["JSONRPC", "HTTP+JSON"]
    .map((b) => `${b}: ${server} echoes hello from ${caller} | ${server} echoes a stream`)
    .join("\n");

/** A consumer project holding the runtime fixtures, the package linked in its node_modules. */
function fixtureProject() {
  const files = Object.fromEntries(
    readdirSync(FIXTURES).map((f) => [f, readFileSync(path.join(FIXTURES, f), "utf8")] as const),
  );
  return consumerProject({ ...files, "package.json": '{ "type": "module" }' });
}

/** Bundles `entry` of `dir` the way a Workers or web bundler does; returns the output's path. */
async function bundle(dir: string, entry: string, conditions: string[]): Promise<string> {
  const outfile = path.join(dir, "out", entry.replace(/\.mjs$/, ".js"));
  await build({
    absWorkingDir: dir,
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions,
    // workerd's nodejs_compat provides node:* built-ins; a browser bundle must not need any.
    external: conditions.includes("workerd") ? ["node:*"] : [],
    outfile,
    logLevel: "error",
  });
  return outfile;
}

/** What the runtime agent's `schema` skill answers for `text` under `outputSchema` (JSON-RPC SendMessage). */
async function schemaSkill(origin: string, text: string, outputSchema: object): Promise<string> {
  const message = {
    messageId: `schema-${text}`,
    role: "ROLE_USER",
    parts: [{ text }],
    metadata: { skillId: "schema", novaosContext: { output_schema: outputSchema } },
  };
  const response = await fetch(`${origin}/`, {
    method: "POST",
    headers: { "content-type": "application/json", "A2A-Version": "1.0" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message } }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the answer is read loosely.
  const answer: any = await response.json();
  return answer?.result?.task?.artifacts?.[0]?.parts?.[0]?.text ?? JSON.stringify(answer);
}

/** Runs a process to its end; resolves its stdout, rejects with its stderr when it fails. */
async function run(file: string, args: string[], cwd: string): Promise<string> {
  const child = spawn(file, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const [code] = await once(child, "close");
  if (code !== 0) throw new Error(`${path.basename(file)} exited with ${code}: ${stderr}`);
  return stdout.trim();
}

/** Stops a child process and waits until it is gone. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = once(child, "close");
  child.kill();
  await closed;
}

describe("runtimes", () => {
  it.each([
    ["Bun", () => npmBinary(BUN, "bin/bun"), ["serve-and-call.mjs"], "bun"],
    [
      "Deno",
      () => npmBinary(DENO, "deno"),
      ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-sys=hostname", "serve-and-call.mjs"],
      "deno",
    ],
  ] as const)(
    "%s: its own server serves fetchHandler() and the universal Client calls it",
    async (_, binary, args, runtime) => {
      await using project = await fixtureProject();
      expect(await run(binary(), [...args], project.dir)).toBe(exchanged(runtime, runtime));
    },
    300_000,
  );

  it("workerd: a worker serves fetchHandler() and calls it with the universal Client; a Node client calls it too", async () => {
    await using project = await fixtureProject();
    await bundle(project.dir, "worker.mjs", ["workerd", "worker"]);
    const config = path.join(project.dir, "workerd.capnp");
    copyFileSync(path.join(FIXTURES, "workerd.capnp"), config);
    // The worker's socket is one this process opened on a free port and hands over: nothing to race for.
    const socket = net.createServer();
    socket.listen(0, "127.0.0.1");
    await once(socket, "listening");
    const origin = `http://127.0.0.1:${(socket.address() as AddressInfo).port}`;
    const fd = (socket as unknown as { _handle: { fd: number } })._handle.fd;
    const workerd = spawn(npmBinary(WORKERD, "bin/workerd"), ["serve", config, "--socket-fd", "http=3"], {
      cwd: project.dir,
      stdio: ["ignore", "ignore", "pipe", fd],
    });
    socket.close();
    let stderr = "";
    workerd.stderr?.on("data", (chunk) => (stderr += chunk));
    try {
      const inWorker = await fetch(`${origin}/__exchange`);
      expect(await inWorker.text(), stderr).toBe(exchanged("workerd", "workerd"));
      expect(inWorker.status).toBe(200);
      expect(await exchange(`${origin}/`, "node")).toBe(exchanged("workerd", "node"));
      // workerd refuses to generate code from strings: the output schema is interpreted, not compiled by Ajv.
      const outputSchema = { type: "string", pattern: "^[a-z]+$" };
      expect(await schemaSkill(origin, "lowercase", outputSchema)).toBe("conforms");
      expect(await schemaSkill(origin, "Not Lowercase", outputSchema)).toBe("pattern");
    } finally {
      await stop(workerd);
    }
  }, 300_000);

  // Outside CI a machine without Chromium skips this one; CI installs it (.ci/run), so there it must run.
  const chromium = execFileSync("sh", ["-c", "command -v chromium || true"], { encoding: "utf8" }).trim();
  it.skipIf(chromium === "" && !process.env.CI)(
    "headless Chromium: a page calls a local agent with the universal Client",
    async () => {
      expect(chromium, "headless Chromium comes from Debian's package: apt-get install chromium").not.toBe("");
      await using project = await fixtureProject();
      const script = readFileSync(await bundle(project.dir, "page.mjs", []));
      const agent = nodeHandler(runtimeAgent("node"));
      let report: (text: string) => void = () => {};
      const reported = new Promise<string>((resolve) => (report = resolve));
      const server = http.createServer((req, res) => {
        if (req.url === "/page.html") {
          res.writeHead(200, { "content-type": "text/html" });
          res.end('<!doctype html><script type="module" src="/page.js"></script>');
        } else if (req.url === "/page.js") {
          res.writeHead(200, { "content-type": "text/javascript" }).end(script);
        } else if (req.url === "/result") {
          let body = "";
          req.on("data", (chunk) => (body += chunk));
          req.on("end", () => {
            res.end();
            report(body);
          });
        } else {
          void agent(req, res);
        }
      });
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      const page = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page.html`;
      const browser = spawn(
        chromium,
        [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--no-first-run",
          `--user-data-dir=${project.dir}/profile`,
          page,
        ],
        { stdio: "ignore" },
      );
      const exited = once(browser, "close").then(([code]) => `error: chromium exited with ${code}`);
      try {
        expect(await Promise.race([reported, exited])).toBe(exchanged("node", "chromium"));
      } finally {
        await stop(browser);
        server.closeAllConnections();
        server.close();
      }
    },
    300_000,
  );
});
