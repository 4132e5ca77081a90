import { describe, expect, it } from "vitest";
import { document as gatewayDocument } from "../../gen/openapi/documents/gateway.js";
import { SpecRouter, SpecViolationError } from "../../src/local-platform/index.js";
import { platform } from "./support.js";

describe("the local platform checks every request and reply against its spec", () => {
  it("answers a request that breaks the spec 400, naming the operation, and records a SpecViolationError", async () => {
    const local = await platform();
    const response = await fetch(`${local.urls.gateway}/api/v1/execute`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ instance_id: "not-a-uuid" }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe("invalid_request");
    expect(body.message).toMatch(/^execute request does not match openapi\/gateway\.yaml: /);
    expect(body.message).toContain("input_text");
    const [violation] = local.violations;
    expect(violation).toBeInstanceOf(SpecViolationError);
    expect(violation).toMatchObject({ spec: "gateway", operationId: "execute", direction: "request" });
    expect(violation?.violations.join("\n")).toMatch(/instance_id.*format "uuid"/);
  });

  it("checks query parameters as the spec types them", async () => {
    const local = await platform();
    expect((await fetch(`${local.urls["agent-dns"]}/agents?page_size=5`)).status).toBe(200);
    const tooBig = await fetch(`${local.urls["agent-dns"]}/agents?page_size=5000`);
    expect(tooBig.status).toBe(400);
    expect(local.violations.map((v) => v.operationId)).toEqual(["listAgents"]);
  });

  it("answers 500 for its own reply that breaks the spec, naming the operation", async () => {
    const violations: SpecViolationError[] = [];
    const router = new SpecRouter({
      name: "gateway",
      document: gatewayDocument,
      handlers: { streamingHealth: () => ({ status: 200, body: { healthy: "yes" } }) },
      onViolation: (error) => violations.push(error),
    });
    const server = await router.listen();
    try {
      const response = await fetch(`${server.url}/api/v1/streaming/health`);
      expect(response.status).toBe(500);
      expect(((await response.json()) as { message: string }).message).toMatch(/^streamingHealth response /);
      expect(violations).toMatchObject([{ operationId: "streamingHealth", direction: "response" }]);
    } finally {
      await server.close();
    }
  });

  it("answers 404 for a path no spec names, and 501 for an operation it does not emulate", async () => {
    const local = await platform();
    expect((await fetch(`${local.urls.gateway}/api/v1/nothing`)).status).toBe(404);
    const router = new SpecRouter({ name: "gateway", document: gatewayDocument, handlers: {} });
    const server = await router.listen();
    try {
      expect((await fetch(`${server.url}/api/v1/streaming/health`)).status).toBe(501);
      expect(router.violations).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe("references between specs", () => {
  const call = (args: unknown) => ({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "novaos.memory.write", arguments: args },
  });

  it("checks an MCP Gateway memory call against the memory spec's payload it names", async () => {
    const local = await platform();
    const post = (body: unknown) =>
      fetch(`${local.urls["mcp-gateway"]}/mcp/v1/tools/call`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await post(call({ scope: "agent" }))).status).toBe(400);
    expect(local.violations[0]?.violations.join("\n")).toMatch(/content/);
    expect((await post(call({ scope: "agent", content: "tides follow the moon" }))).status).not.toBe(400);
    expect(local.violations).toHaveLength(1);
  });
});
