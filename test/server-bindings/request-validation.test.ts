/**
 * Bad input is answered as a typed validation error on every binding
 * (-32602, HTTP 400, INVALID_ARGUMENT) whose message names the first
 * violation and whose BadRequest names the field: unknown enum values (by
 * name and by number), page sizes outside 1–100, a negative history length
 * on SendMessage, parts without content, ids holding NUL. Nothing is stored
 * for a refused request. A missing A2A-Version is answered with a message that says so.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { A2AMethodName } from "../../src/a2a/bindings.js";
import { type AgentServer, listen } from "../../src/node/serve-agent.js";
import { type ServedAgent, serveForAttack, userMessage } from "../hardening/support.js";
import { type BindingDriver, grpcDriver, httpJsonDriver, jsonRpcDriver, WireError } from "./support/binding-drivers.js";
import { buildAgent } from "./support/scenarios.js";

let server: AgentServer;
let drivers: BindingDriver[];
beforeAll(async () => {
  server = await listen(buildAgent(), { port: 0, grpcPort: 0 });
  drivers = [jsonRpcDriver(server.url), httpJsonDriver(server.url), grpcDriver(server.grpcTarget as string)];
});
afterAll(async () => {
  for (const d of drivers) d.close();
  await server.close();
});

/** The validation status each binding answers with. */
const INVALID: Record<string, number> = { JSONRPC: -32602, "HTTP+JSON": 400, GRPC: 3 };

let unique = 0;
function message(extra: JsonObject = {}): JsonObject {
  return {
    messageId: `v-${++unique}`,
    role: "ROLE_USER",
    parts: [{ text: "hi" }],
    metadata: { skillId: "echo" },
    ...extra,
  };
}

async function refusal(d: BindingDriver, rpc: A2AMethodName, request: JsonObject): Promise<WireError> {
  try {
    await d.call(rpc, request);
  } catch (error) {
    if (error instanceof WireError) return error;
    throw error;
  }
  throw new Error(`${d.name}: ${rpc} ${JSON.stringify(request)} succeeded`);
}

/** Expects a validation error naming `field` first, in the message and in the BadRequest. */
async function expectInvalid(
  d: BindingDriver,
  rpc: A2AMethodName,
  request: JsonObject,
  field: string,
  says: RegExp,
): Promise<void> {
  const error = await refusal(d, rpc, request);
  expect(error.reason, d.name).toBe("INVALID_PARAMS");
  expect(error.detail.status, d.name).toBe(INVALID[d.name]);
  expect(error.detail.fields?.[0], d.name).toBe(field);
  expect(error.detail.message, d.name).toMatch(/^Invalid parameters: /);
  expect(error.detail.message, d.name).toContain(field);
  expect(error.detail.message, d.name).toMatch(says);
}

const TASK_STATES =
  "TASK_STATE_SUBMITTED, TASK_STATE_WORKING, TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, " +
  "TASK_STATE_INPUT_REQUIRED, TASK_STATE_REJECTED, TASK_STATE_AUTH_REQUIRED";

describe.each(["JSONRPC", "HTTP+JSON", "GRPC"])("request validation over %s", (name) => {
  const driver = () => drivers.find((d) => d.name === name) as BindingDriver;

  it("refuses an unknown ListTasks status by number, naming the field and the accepted values", async () => {
    await expectInvalid(driver(), "ListTasks", { status: 99 }, "status", new RegExp(`must be one of: ${TASK_STATES}$`));
  });

  it("refuses an unknown message role by number, and stores nothing", async () => {
    const before = ((await driver().call("ListTasks", {})) as { totalSize: number }).totalSize;
    await expectInvalid(
      driver(),
      "SendMessage",
      { message: message({ role: 99 }) },
      "message.role",
      /ROLE_USER, ROLE_AGENT/,
    );
    expect(((await driver().call("ListTasks", {})) as { totalSize: number }).totalSize).toBe(before);
  });

  it("refuses a ListTasks pageSize outside 1–100 and serves 100", async () => {
    await expectInvalid(driver(), "ListTasks", { pageSize: 101 }, "pageSize", /between 1 and 100 inclusive, got 101/);
    await expectInvalid(driver(), "ListTasks", { pageSize: 0 }, "pageSize", /got 0/);
    expect(((await driver().call("ListTasks", { pageSize: 100 })) as { pageSize: number }).pageSize).toBe(100);
  });

  it("refuses a negative configuration.historyLength on SendMessage", async () => {
    await expectInvalid(
      driver(),
      "SendMessage",
      { message: message(), configuration: { historyLength: -1 } },
      "configuration.historyLength",
      /must be 0 or more, got -1/,
    );
  });

  it("refuses a part with no content, and a message whose parts are all empty", async () => {
    await expectInvalid(
      driver(),
      "SendMessage",
      { message: message({ parts: [{ text: "hi" }, { mediaType: "text/plain" }] }) },
      "message.parts[1]",
      /has no content/,
    );
    await expectInvalid(
      driver(),
      "SendMessage",
      { message: message({ parts: [{ text: "" }, { url: "" }] }) },
      "message.parts",
      /every part is empty/,
    );
  });

  it("refuses an id holding NUL in every request that names one, and stores nothing (S694)", async () => {
    const nul = "a\u0000b";
    const says = /holds NUL or an unpaired surrogate, which no id may$/;
    const before = ((await driver().call("ListTasks", {})) as { totalSize: number }).totalSize;
    await expectInvalid(driver(), "SendMessage", { message: message({ contextId: nul }) }, "message.contextId", says);
    await expectInvalid(driver(), "SendMessage", { message: message({ taskId: nul }) }, "message.taskId", says);
    await expectInvalid(
      driver(),
      "SendMessage",
      { message: message({ referenceTaskIds: ["r-1", nul] }) },
      "message.referenceTaskIds[1]",
      says,
    );
    expect(((await driver().call("ListTasks", {})) as { totalSize: number }).totalSize).toBe(before);
    await expectInvalid(driver(), "GetTask", { id: nul }, "id", says);
    await expectInvalid(driver(), "GetTask", { id: "t-1", tenant: nul }, "tenant", says);
    await expectInvalid(driver(), "CancelTask", { id: nul }, "id", says);
    await expectInvalid(driver(), "ListTasks", { contextId: nul }, "contextId", says);
    const hook = "https://hooks.example.com/a2a";
    await expectInvalid(driver(), "CreateTaskPushNotificationConfig", { taskId: nul, url: hook }, "taskId", says);
    await expectInvalid(driver(), "GetTaskPushNotificationConfig", { taskId: "t-1", id: nul }, "id", says);
    await expectInvalid(driver(), "DeleteTaskPushNotificationConfig", { taskId: nul, id: "c-1" }, "taskId", says);
  });

  it("says a missing A2A-Version header is missing and that 1.0 is served", async () => {
    const error = await driver()
      .call("GetTask", { id: "any" }, {})
      .then(
        () => expect.fail("served without a version"),
        (e: WireError) => e,
      );
    expect(error.reason).toBe("VERSION_NOT_SUPPORTED");
    expect(error.detail.message).toMatch(/A2A-Version header is missing.*serves A2A 1\.0/);
    const explicit = await driver()
      .call("GetTask", { id: "any" }, { "A2A-Version": "0.3" })
      .then(
        () => expect.fail("served 0.3"),
        (e: WireError) => e,
      );
    expect(explicit.detail.message).toMatch(/version '0\.3' is not supported/);
  });
});

describe("enum names a JSON request cannot have", () => {
  let agent: ServedAgent;
  beforeAll(async () => {
    agent = await serveForAttack(buildAgent());
  });
  afterAll(() => agent.close());

  it("refuses status INVALID_STATUS on JSON-RPC and HTTP+JSON (query and body)", async () => {
    const jsonRpc = await agent.jsonRpc("ListTasks", '{"status":"INVALID_STATUS"}');
    expect(jsonRpc.body.error.code).toBe(-32602);
    expect(jsonRpc.body.error.message).toBe(
      `Invalid parameters: status: "INVALID_STATUS" is not a TaskState value; must be one of: ${TASK_STATES}`,
    );
    const query = await agent.httpJson("tasks?status=INVALID_STATUS");
    expect(query.status).toBe(400);
    expect(query.body.error.message).toContain('status: "INVALID_STATUS" is not a TaskState value');
    const body = await agent.httpJson(
      "message:send",
      `{"message":${userMessage("x").replace('"ROLE_USER"', '"user"')}}`,
    );
    expect(body.status).toBe(400);
    expect(body.body.error.message).toContain('message.role: "user" is not a Role value');
  });

  it("refuses role 'user' and keeps ignoring unknown fields", async () => {
    const role = await agent.jsonRpc(
      "SendMessage",
      '{"message":{"messageId":"m","role":"user","parts":[{"text":"hi"}],"metadata":{"skillId":"echo"}}}',
    );
    expect(role.body.error.data[1].fieldViolations[0].field).toBe("message.role");
    const unknownField = await agent.jsonRpc(
      "SendMessage",
      '{"somethingNew":1,"message":{"messageId":"m2","role":"ROLE_USER","parts":[{"text":"hi","shiny":true}],"metadata":{"skillId":"echo"}}}',
    );
    expect(unknownField.body.result.task.status.state).toBe("TASK_STATE_COMPLETED");
  });

  it("refuses {txt: hi} as a part with no content instead of running the skill on nothing", async () => {
    const reply = await agent.httpJson(
      "message:send",
      '{"message":{"messageId":"m3","role":"ROLE_USER","parts":[{"txt":"hi"}],"metadata":{"skillId":"echo"}}}',
    );
    expect(reply.status).toBe(400);
    expect(reply.body.error.message).toBe(
      "Invalid parameters: message.parts[0] has no content: set one of text, raw, url or data",
    );
  });
});
