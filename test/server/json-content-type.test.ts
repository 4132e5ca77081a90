/**
 * One request Content-Type rule for the two JSON bindings, over a real
 * socket: what one accepts the other accepts, what one refuses the other
 * refuses (JSON-RPC with -32005 in an HTTP 200 envelope, HTTP+JSON with 400
 * CONTENT_TYPE_NOT_SUPPORTED). The one difference is a request without the
 * header, decided per binding.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../../src/node/index.js";
import type { AgentServer } from "../../src/node/serve-agent.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";

const V1 = { "A2A-Version": "1.0" };

let server: AgentServer;
beforeAll(async () => {
  server = await listen(new AgentBuilder({ name: "ct", logger: createLogger({ level: "silent" }) }), { port: 0 });
});
afterAll(() => server.close());

/** JSON-RPC GetTask of an unknown task: -32001 when the body is read, -32005 when it is refused. */
async function jsonRpc(contentType: string | undefined): Promise<{ status: number; code: number; reason: string }> {
  const response = await fetch(server.url, {
    method: "POST",
    headers: { ...V1, ...(contentType === undefined ? {} : { "content-type": contentType }) },
    body: new Blob([JSON.stringify({ jsonrpc: "2.0", id: 7, method: "GetTask", params: { id: "t-none" } })]),
  });
  const { error } = await response.json();
  return { status: response.status, code: error.code, reason: error.data[0].reason };
}

/** HTTP+JSON CancelTask of an unknown task: 404 TASK_NOT_FOUND when the body is read, 400 when it is refused. */
async function httpJson(contentType: string | undefined): Promise<{ status: number; reason: string }> {
  const response = await fetch(new URL("tasks/t-none:cancel", server.url), {
    method: "POST",
    headers: { ...V1, ...(contentType === undefined ? {} : { "content-type": contentType }) },
    body: new Blob([JSON.stringify({})]),
  });
  const { error } = await response.json();
  return { status: response.status, reason: error.details[0].reason };
}

describe("the request Content-Type rule of JSON-RPC and HTTP+JSON", () => {
  it.each([
    "application/json",
    "application/a2a+json",
    "application/json; charset=utf-8",
    'Application/A2A+JSON; charset="UTF-8"; profile=x',
  ])("both bindings accept %s", async (contentType) => {
    expect(await jsonRpc(contentType)).toEqual({ status: 200, code: -32001, reason: "TASK_NOT_FOUND" });
    expect(await httpJson(contentType)).toEqual({ status: 404, reason: "TASK_NOT_FOUND" });
  });

  it.each(["application/json; charset=latin1", "application/json; charset=utf-16", "application/jsonx", "text/plain"])(
    "both bindings refuse %s",
    async (contentType) => {
      expect(await jsonRpc(contentType)).toEqual({ status: 200, code: -32005, reason: "CONTENT_TYPE_NOT_SUPPORTED" });
      expect(await httpJson(contentType)).toEqual({ status: 400, reason: "CONTENT_TYPE_NOT_SUPPORTED" });
    },
  );

  it("reads a JSON-RPC body sent without a Content-Type, and refuses an HTTP+JSON one", async () => {
    expect(await jsonRpc(undefined)).toEqual({ status: 200, code: -32001, reason: "TASK_NOT_FOUND" });
    expect(await httpJson(undefined)).toEqual({ status: 400, reason: "CONTENT_TYPE_NOT_SUPPORTED" });
  });
});
