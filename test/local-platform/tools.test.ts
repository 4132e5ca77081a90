import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { NovaOSAuthenticationError } from "../../src/errors/novaos-errors.js";
import type { LocalPlatform } from "../../src/local-platform/index.js";
import type { SkillHandler } from "../../src/server/index.js";
import { type ToolBindings, ToolNotFoundError } from "../../src/tools/index.js";
import { platform, serve } from "./support.js";
import { outputOf, runThroughGateway, toolAgent } from "./tools-support.js";

/** What a call rejected with: its class and message, for a skill to report. */
const failure = (error: unknown) => ({ name: (error as Error).name, message: (error as Error).message });

/** Runs `skill` as the only skill of a registered agent, through the gateway; its output parsed. */
async function runSkill(local: LocalPlatform, skill: SkillHandler<ToolBindings>, input = "go"): Promise<unknown> {
  const agent = toolAgent(local, "tools-agent");
  agent.skill("work", { description: "Uses the tools" }, skill);
  const server = await serve(agent);
  const { instanceId } = await local.registerAgent({ url: server.url });
  return outputOf(await runThroughGateway(local, instanceId, input));
}

describe("the local MCP Gateway's files tools", () => {
  it("writes, lists, reads and deletes a run's and an agent's files; a stale etag and a missing file fail", async () => {
    const local = await platform();
    const output = await runSkill(local, async (ctx) => {
      const written = await ctx.tools.files.write("reports/q1.md", "# Q1", { scope: "agent" });
      await ctx.tools.files.write("reports/q2.md", "# Q2", { scope: "agent" });
      await ctx.tools.files.write("scratch.bin", Buffer.from([0xff, 0x00]).toString("base64"), { encoding: "base64" });
      const agentFiles = await ctx.tools.files.list({ scope: "agent", prefix: "reports/", page_size: 1 });
      const next = await ctx.tools.files.list({ scope: "agent", page_token: agentFiles.next_page_token });
      const runFiles = await ctx.tools.files.list();
      const read = await ctx.tools.files.read("reports/q1.md", { scope: "agent" });
      const notUtf8 = await ctx.tools.files.read("scratch.bin").catch(failure);
      const bytes = await ctx.tools.files.read("scratch.bin", { encoding: "base64" });
      const stale = await ctx.tools.files
        .write("reports/q1.md", "# Q1 again", { scope: "agent", if_match: "not-the-etag" })
        .catch(failure);
      const deleted = await ctx.tools.files.delete("reports/q1.md", { scope: "agent" });
      const deletedAgain = await ctx.tools.files.delete("reports/q1.md", { scope: "agent" });
      const missing = await ctx.tools.files.read("reports/q1.md", { scope: "agent" }).catch(failure);
      return {
        output: JSON.stringify({
          written: [written.size_bytes, written.content_type, written.etag === read.etag],
          pages: [agentFiles.files.map((f) => f.path), next.files.map((f) => f.path)],
          runFiles: runFiles.files.map((f) => f.path),
          read: [read.content, read.encoding],
          notUtf8,
          bytes: [bytes.content, bytes.content_type],
          stale,
          deleted: [deleted.deleted, deletedAgain.deleted],
          missing,
        }),
      };
    });
    expect(output).toEqual({
      written: [4, "text/plain; charset=utf-8", true],
      pages: [["reports/q1.md"], ["reports/q2.md"]],
      runFiles: ["scratch.bin"],
      read: ["# Q1", "utf-8"],
      notUtf8: { name: "ToolError", message: expect.stringMatching(/HTTP 422: scratch.bin is not UTF-8/) },
      bytes: ["/wA=", "application/octet-stream"],
      stale: { name: "ToolError", message: expect.stringMatching(/HTTP 412: reports\/q1.md is not at etag/) },
      deleted: [true, false],
      missing: { name: "ToolError", message: expect.stringMatching(/HTTP 404: No file reports\/q1.md/) },
    });
    expect(local.violations).toEqual([]);
  });
});

describe("the local MCP Gateway's connector tools", () => {
  it("runs the echo connector and a registered one; an unregistered connector is a ToolNotFoundError, a throwing one a ToolError", async () => {
    const local = await platform();
    local.connectors.register("crm", ({ operation, params, tenantId }) => {
      if (params.id === "missing") throw new Error("no such contact");
      return { operation, tenantId, contact: { id: params.id, name: "Ada" } };
    });
    const output = await runSkill(local, async (ctx) => {
      const echoed = await ctx.tools.connector.call("echo", "get-anything", { a: 1 });
      const contact = await ctx.tools.connector.call("crm", "get-contact", { id: "c-1" });
      const failed = await ctx.tools.connector.call("crm", "get-contact", { id: "missing" }).catch(failure);
      const unknown = await ctx.tools.connector.call("erp", "list-orders").catch((error: unknown) => ({
        notFound: error instanceof ToolNotFoundError,
        ...failure(error),
      }));
      return { output: JSON.stringify({ echoed, contact: contact.data, failed, unknown }) };
    });
    expect(output).toMatchObject({
      echoed: {
        data: { operation: "get-anything", params: { a: 1 } },
        provenance: { connector_id: "echo", operation: "get-anything", tier: "standard" },
        meta: {},
      },
      contact: { operation: "get-contact", tenantId: "local", contact: { id: "c-1", name: "Ada" } },
      failed: { name: "ToolError", message: expect.stringMatching(/crm.get-contact failed: no such contact/) },
      unknown: { notFound: true, message: expect.stringMatching(/No standard connector erp is registered/) },
    });
    expect(local.violations).toEqual([]);
  });

  it("a connector write operation passes the write-confirmation gate like any write", async () => {
    const local = await platform();
    const output = await runSkill(local, async (ctx) => {
      const refused = await ctx.tools.connector.call("echo", "send-message", { to: "ada" }).catch(failure);
      return { output: JSON.stringify(refused) };
    });
    expect(output).toMatchObject({ name: "WriteConfirmationRequiredError" });
  });
});

const upstreams: Server[] = [];
afterEach(async () => {
  for (const server of upstreams.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** An upstream on 127.0.0.1: `/hello` answers text, `/bytes` bytes, `/moved` redirects to `/hello`, else 404. */
async function upstream(): Promise<string> {
  const server = createServer((request, response) => {
    if (request.url === "/moved") response.writeHead(302, { location: "/hello" }).end();
    else if (request.url === "/hello")
      response.writeHead(200, { "content-type": "text/plain" }).end(`hello ${request.method}`);
    else if (request.url === "/bytes") response.writeHead(200).end(Buffer.from([0xff, 0xfe, 0xfd]));
    else response.writeHead(404).end("nothing here");
  });
  upstreams.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the local MCP Gateway's http tools", () => {
  it("fetches from an allow-listed host (redirects followed, a 404 is a result, bytes as base64, cut at max_bytes); any other host is refused -32040", async () => {
    const base = await upstream();
    const local = await platform({ httpAllowedHosts: ["127.0.0.1"], confirmWrites: false });
    const output = await runSkill(local, async (ctx) => {
      const moved = await ctx.tools.http.get(`${base}/moved`);
      const missing = await ctx.tools.http.get(`${base}/nope`);
      const bytes = await ctx.tools.http.get(`${base}/bytes`);
      const cut = await ctx.tools.http.get(`${base}/hello`, { max_bytes: 5 });
      const posted = await ctx.tools.http.request("POST", `${base}/hello`, { body: "x" });
      const refused = await ctx.tools.http.get("http://localhost:9/").catch((error: unknown) => ({
        authentication: error instanceof NovaOSAuthenticationError,
        ...failure(error),
      }));
      return {
        output: JSON.stringify({
          moved: [moved.status, moved.body, moved.url],
          missing: [missing.status, missing.body],
          bytes: [bytes.body, bytes.body_encoding],
          cut: [cut.body, cut.truncated],
          posted: posted.body,
          refused,
        }),
      };
    });
    expect(output).toEqual({
      moved: [200, "hello GET", `${base}/hello`],
      missing: [404, "nothing here"],
      bytes: ["//79", "base64"],
      cut: ["hello", true],
      posted: "hello POST",
      refused: {
        authentication: true,
        name: "NovaOSAuthenticationError",
        message: expect.stringMatching(/localhost is not in the tenant's domain allowlist/),
      },
    });
    expect(local.violations).toEqual([]);
  });
});

describe("the local MCP Gateway's memory hint, forget and assemble", () => {
  it("consolidates a hint into the user's memory, forgets a memory (an unknown one is 404) and assembles both scopes", async () => {
    const local = await platform();
    const output = await runSkill(local, async (ctx) => {
      const hint = await ctx.tools.memory.hint("The user prefers dark mode", "conv-1", { priority: "low" });
      const user = await ctx.tools.memory.query("user", "dark mode");
      const written = await ctx.tools.memory.write("agent", "Dark mode ships in v2");
      const bundle = await ctx.tools.memory.assemble("dark mode");
      const forgotten = await ctx.tools.memory.forget("agent", written.memory_id, "superseded");
      const again = await ctx.tools.memory.forget("agent", written.memory_id, "superseded").catch(failure);
      return {
        output: JSON.stringify({
          hint: [hint.status, hint.hint_id.startsWith("hint_")],
          user: user.items.map((item) => item.content),
          bundle: [bundle.durable_memories.map((m) => m.content), bundle.agent_memories.map((m) => m.content)],
          forgotten: forgotten.deleted_count,
          again,
        }),
      };
    });
    expect(output).toEqual({
      hint: ["accepted", true],
      user: ["The user prefers dark mode"],
      bundle: [["The user prefers dark mode"], ["Dark mode ships in v2"]],
      forgotten: 1,
      again: { name: "ToolError", message: expect.stringMatching(/HTTP 404: /) },
    });
    expect(local.violations).toEqual([]);
  });
});

describe("the local MCP Gateway's notify tool", () => {
  it("records each notification and answers it sent; a repeated idempotency_key answers the first and records nothing", async () => {
    const local = await platform({ confirmWrites: false });
    const output = await runSkill(local, async (ctx) => {
      const send = (body: string) =>
        ctx.tools.notify.send({
          channel: "email",
          to: ["ada@example.com"],
          subject: "Report",
          body,
          idempotency_key: "k-1",
        });
      const first = await send("first");
      const repeat = await send("second");
      return { output: JSON.stringify({ first, same: repeat.notification_id === first.notification_id }) };
    });
    expect(output).toMatchObject({
      first: { channel: "email", status: "sent", recipients: 1, notification_id: expect.stringMatching(/^ntf_/) },
      same: true,
    });
    expect(local.notifications).toEqual([
      expect.objectContaining({ channel: "email", subject: "Report", body: "first", tenant_id: "local" }),
    ]);
  });
});
