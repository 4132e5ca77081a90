import { afterEach, describe, expect, it } from "vitest";
import { type ContractServer, startContractServer } from "./contract-server.js";

// The contract tests are only as strong as the server that checks them: prove it catches drift both ways.
let server: ContractServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer t", ...headers },
    body: JSON.stringify(body),
  });

describe("contract server", () => {
  it("records a request body the spec does not allow", async () => {
    server = await startContractServer({
      spec: "gateway.yaml",
      bearerToken: "t",
      handlers: { execute: () => ({ status: 200, body: { run_id: "r" } }) },
    });
    const response = await post(`${server.url}/api/v1/execute`, { instance_id: "not-a-uuid", input: "renamed field" });
    expect(response.status).toBe(400);
    expect(server.violations.join("\n")).toMatch(/execute POST \/api\/v1\/execute request/);
  });

  it("records a response body the spec does not allow", async () => {
    server = await startContractServer({
      spec: "gateway.yaml",
      bearerToken: "t",
      handlers: { execute: () => ({ status: 200, body: { runId: "camelCase is not the spec" } }) },
    });
    await post(`${server.url}/api/v1/execute`, {
      instance_id: "3f6c1d0e-8a2b-4c5d-9e7f-0a1b2c3d4e5f",
      input_text: "x",
    });
    expect(server.violations.join("\n")).toMatch(/execute 200 response/);
  });

  it("records an SSE event the spec does not allow and a path it does not have", async () => {
    server = await startContractServer({
      spec: "gateway.yaml",
      bearerToken: "t",
      eventSchema: "GatewayEvent",
      handlers: {
        runEvents: ({ sse }) => {
          const stream = sse();
          stream.event({ type: "message.delta", payload: { text: "wrong key" } });
          stream.end();
          return undefined;
        },
      },
    });
    await (await fetch(`${server.url}/api/v1/events/r1`, { headers: { authorization: "Bearer t" } })).text();
    await fetch(`${server.url}/api/v1/nope`);
    expect(server.violations).toHaveLength(2);
    expect(server.violations[0]).toMatch(/runEvents event/);
    expect(server.violations[1]).toMatch(/no operation for GET \/api\/v1\/nope/);
  });

  it("answers 401 without the bearer token", async () => {
    server = await startContractServer({
      spec: "gateway.yaml",
      bearerToken: "t",
      handlers: { streamingHealth: () => ({ status: 200, body: { healthy: true } }) },
    });
    expect((await fetch(`${server.url}/api/v1/streaming/health`)).status).toBe(401);
    expect(
      (await fetch(`${server.url}/api/v1/streaming/health`, { headers: { authorization: "Bearer t" } })).status,
    ).toBe(200);
  });
});
