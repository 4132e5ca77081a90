/** The HTTP+JSON binding on the wire: routes from the binding table, bodies, queries, errors, SSE. */
import { afterEach, describe, expect, it } from "vitest";
import { TaskState } from "../../gen/a2a_pb.js";
import {
  InternalError,
  InvalidRequestError,
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
} from "../../src/a2a/errors.js";
import { Client } from "../../src/client/client.js";
import { NovaOSAgentNotFoundError } from "../../src/errors/novaos-errors.js";
import {
  type RecordedRequest,
  sendJson,
  sseEvent,
  startHttpServer,
  startSse,
  type TestHttpServer,
} from "./support/http-server.js";

const task = { id: "t/1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } };

let server: TestHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected the call to fail"),
    (error: unknown) => error,
  );
}

/** A server answering every unary route with `body`, recording the requests. */
async function answering(body: unknown, status = 200): Promise<TestHttpServer> {
  return startHttpServer((_req, res) => {
    if (status === 204) {
      res.writeHead(204);
      res.end();
      return;
    }
    sendJson(res, status, body);
  });
}

function last(): RecordedRequest {
  return server?.requests.at(-1) as RecordedRequest;
}

describe("HTTP+JSON routes", () => {
  it("sends each method to its route, with path fields out of the body", async () => {
    server = await answering(task);
    await using client = new Client({ baseUrl: `${server.url}/rest/`, binding: "HTTP+JSON" });

    await client.getTask("t/1", { historyLength: 3 });
    expect([last().method, last().url, last().body]).toEqual(["GET", "/rest/tasks/t%2F1?historyLength=3", ""]);

    await client.cancelTask("t1", { metadata: { why: "test" } });
    expect([last().method, last().url]).toEqual(["POST", "/rest/tasks/t1:cancel"]);
    expect(JSON.parse(last().body)).toEqual({ metadata: { why: "test" } });
    expect(last().headers["content-type"]).toBe("application/json");

    await client.getTaskPushNotificationConfig("t1", "cfg");
    expect([last().method, last().url]).toEqual(["GET", "/rest/tasks/t1/pushNotificationConfigs/cfg"]);

    await client.listTaskPushNotificationConfigs("t1", { pageSize: 5, pageToken: "p2" });
    expect(last().url).toBe("/rest/tasks/t1/pushNotificationConfigs?pageSize=5&pageToken=p2");

    await client.createTaskPushNotificationConfig({ taskId: "t1", url: "https://h.example/x", token: "tok" });
    expect([last().method, last().url]).toEqual(["POST", "/rest/tasks/t1/pushNotificationConfigs"]);
    expect(JSON.parse(last().body)).toEqual({ url: "https://h.example/x", token: "tok" });

    await client.getExtendedAgentCard();
    expect([last().method, last().url]).toEqual(["GET", "/rest/extendedAgentCard"]);

    await client.sendMessage("hi");
    expect([last().method, last().url]).toEqual(["POST", "/rest/message:send"]);
    expect(JSON.parse(last().body).message.parts).toEqual([{ text: "hi" }]);
    expect(last().headers["a2a-version"]).toBe("1.0");
  });

  it("puts every ListTasks filter in the query, by its camelCase name", async () => {
    server = await answering({ tasks: [], nextPageToken: "", pageSize: 0, totalSize: 0 });
    await using client = new Client({ baseUrl: server.url, binding: "HTTP+JSON" });
    await client.listTasks({
      contextId: "c1",
      status: TaskState.WORKING,
      pageSize: 10,
      pageToken: "tok",
      historyLength: 0,
      statusTimestampAfter: "2026-01-02T03:04:05.5Z",
      includeArtifacts: false,
    });
    const url = new URL(last().url, server.url);
    expect(url.pathname).toBe("/tasks");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      contextId: "c1",
      status: "TASK_STATE_WORKING",
      pageSize: "10",
      pageToken: "tok",
      historyLength: "0",
      statusTimestampAfter: "2026-01-02T03:04:05.500Z",
      includeArtifacts: "false",
    });
  });

  it("uses the /{tenant} routes when the client has a tenant", async () => {
    server = await answering(task);
    await using client = new Client({ baseUrl: server.url, binding: "HTTP+JSON", tenant: "acme co" });
    await client.getTask("t1");
    expect(last().url).toBe("/acme%20co/tasks/t1");
    await client.sendMessage("hi");
    expect(last().url).toBe("/acme%20co/message:send");
    expect(JSON.parse(last().body).tenant).toBeUndefined();
  });

  it("accepts an empty 204 for DeleteTaskPushNotificationConfig", async () => {
    server = await answering(undefined, 204);
    await using client = new Client({ baseUrl: server.url, binding: "HTTP+JSON" });
    await client.deleteTaskPushNotificationConfig("t1", "cfg");
    expect([last().method, last().url]).toEqual(["DELETE", "/tasks/t1/pushNotificationConfigs/cfg"]);
  });
});

describe("HTTP+JSON errors", () => {
  const status = (code: number, statusName: string, reason?: string) => ({
    error: {
      code,
      status: statusName,
      message: "from the agent",
      details: reason
        ? [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason,
              domain: "a2a-protocol.org",
              metadata: { taskId: "t1" },
            },
          ]
        : [],
    },
  });

  it("reads the ErrorInfo reason, whatever the status", async () => {
    server = await answering(status(400, "FAILED_PRECONDITION", "TASK_NOT_CANCELABLE"), 400);
    await using client = new Client({ baseUrl: server.url, binding: "HTTP+JSON" });
    const error = await failure(client.cancelTask("t1"));
    expect(error).toBeInstanceOf(TaskNotCancelableError);
    expect((error as TaskNotCancelableError).taskId).toBe("t1");
    expect((error as Error).message).toBe("from the agent");
  });

  it("without an ErrorInfo a google.rpc.Status maps by status (decision P10)", async () => {
    server = await startHttpServer((req, res) => {
      const code = Number(req.headers["x-status"]);
      sendJson(res, code, status(code, "X"));
    });
    await using client = new Client({ baseUrl: server.url, binding: "HTTP+JSON" });
    const call = (code: number) => failure(client.getTask("t1", { headers: { "x-status": String(code) } }));
    expect(await call(404)).toBeInstanceOf(TaskNotFoundError);
    expect(await call(500)).toBeInstanceOf(InternalError);
    expect(await call(400)).toBeInstanceOf(InvalidRequestError);
  });

  it("a 404 that is not an A2A error body is an unknown agent", async () => {
    server = await startHttpServer((_req, res) => {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("Cannot GET /tasks/t1");
    });
    await using client = new Client({ baseUrl: server.url, binding: "HTTP+JSON" });
    expect(await failure(client.getTask("t1"))).toBeInstanceOf(NovaOSAgentNotFoundError);
  });
});

describe("HTTP+JSON streams", () => {
  it("subscribes with POST (decision P18) and reads bare StreamResponse events", async () => {
    server = await startHttpServer((_req, res) => {
      startSse(res);
      sseEvent(res, { task });
      sseEvent(res, { statusUpdate: { taskId: "t/1", contextId: "c1", status: { state: "TASK_STATE_CANCELED" } } });
      res.end();
    });
    await using client = new Client({ baseUrl: server.url, binding: "HTTP+JSON" });
    const frames = [];
    for await (const frame of client.subscribeToTask("t/1")) frames.push(frame.payload.case);
    expect(frames).toEqual(["task", "statusUpdate"]);
    expect([last().method, last().url, last().body]).toEqual(["POST", "/tasks/t%2F1:subscribe", ""]);
    expect(last().headers.accept).toContain("text/event-stream");
  });

  it("throws a google.rpc.Status sent as an error event", async () => {
    server = await startHttpServer((_req, res) => {
      startSse(res);
      sseEvent(res, { task });
      sseEvent(
        res,
        {
          error: {
            code: 400,
            status: "FAILED_PRECONDITION",
            message: "no push",
            details: [
              {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                reason: "PUSH_NOTIFICATION_NOT_SUPPORTED",
                domain: "a2a-protocol.org",
              },
            ],
          },
        },
        "error",
      );
      res.end();
    });
    await using client = new Client({ baseUrl: server.url, binding: "HTTP+JSON" });
    const error = await failure(
      (async () => {
        for await (const _ of client.sendStreamingMessage("go")) {
          // drain
        }
      })(),
    );
    expect(error).toBeInstanceOf(PushNotificationNotSupportedError);
    expect(JSON.parse(last().body).message.parts).toEqual([{ text: "go" }]);
    expect(last().url).toBe("/message:stream");
  });
});
