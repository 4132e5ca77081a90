/**
 * `send --file` puts each file on the wire as a raw part with its name and
 * media type, and an unreadable file is a usage error before anything is sent;
 * `chat` answers an AUTH_REQUIRED pause in place, as it does INPUT_REQUIRED.
 * Against an agent of our own whose skills report what they received.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { type AgentServer, listen } from "../../src/node/serve-agent.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { cli, jsonLines } from "./support/run-cli.js";

let server: AgentServer;
let dir: string;

beforeAll(async () => {
  const agent = new AgentBuilder({ name: "receiver", version: "1.0.0", description: "Reports what it was sent" });
  agent.skill("files", { description: "Lists the file parts it received" }, async (ctx) => ({
    output: ctx.message.parts
      .filter((part) => part.content.case === "raw")
      .map((part) => `${part.filename}|${part.mediaType}|${(part.content.value as Uint8Array).length}`)
      .join(";"),
  }));
  agent.skill("sign-in", { description: "Asks for authorization, then greets" }, async (ctx, text) => {
    if (ctx.task.history.length <= 1) {
      await ctx.taskUpdater.requiresAuth();
      return { status: "WAITING_USER" };
    }
    return { output: `Signed in with ${text}` };
  });
  server = await listen(agent, { port: 0 });
  dir = await mkdtemp(join(tmpdir(), "novaos-cli-files-"));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("send --file", () => {
  it("sends each file as a raw part named after the file, with a media type from its extension", async () => {
    await writeFile(join(dir, "notes.txt"), "# hello\n");
    await writeFile(join(dir, "blob.bin"), new Uint8Array(300));
    const run = await cli([
      "send",
      server.url,
      "--skill",
      "files",
      "--file",
      join(dir, "notes.txt"),
      "--file",
      join(dir, "blob.bin"),
      "--json",
    ]);
    expect(run.code).toBe(EXIT.OK);
    expect(run.stdout).toContain("notes.txt|text/plain|8;blob.bin|application/octet-stream|300");
  });

  it("is a usage error naming the file when it cannot be read, and sends nothing", async () => {
    const missing = join(dir, "missing.txt");
    const run = await cli(["send", server.url, "--skill", "files", "--file", missing]);
    expect(run.code).toBe(EXIT.USAGE);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`cannot read --file ${missing}`);
  });
});

describe("chat", () => {
  it("answers an AUTH_REQUIRED pause in place: the next line continues the same task", async () => {
    const run = await cli(["chat", server.url, "--skill", "sign-in", "--json"], { stdin: "hello\nmy-token\n" });
    expect(run.code).toBe(EXIT.OK);
    type Frame = {
      task?: { id: string; status: { state: string } };
      statusUpdate?: { taskId: string; status: { state: string } };
    };
    const frames = jsonLines(run.stdout) as Frame[];
    const states = frames.map((f) => f.task?.status.state ?? f.statusUpdate?.status.state).filter(Boolean);
    const taskIds = frames.map((f) => f.task?.id ?? f.statusUpdate?.taskId).filter(Boolean);
    expect(states).toContain("TASK_STATE_AUTH_REQUIRED");
    expect(states.at(-1)).toBe("TASK_STATE_COMPLETED");
    expect(new Set(taskIds).size).toBe(1);
    expect(run.stdout).toContain("Signed in with my-token");
  });
});
