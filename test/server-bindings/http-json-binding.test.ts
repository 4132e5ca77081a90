import { create, type DescMessage, type JsonObject, toJson } from "@bufbuild/protobuf";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type GetTaskRequest,
  type ListTasksRequest,
  type StreamResponse,
  StreamResponseSchema,
  TaskSchema,
  TaskState,
} from "../../gen/a2a_pb.js";
import { type A2ABinding, a2aBindingList, a2aServiceBindings, httpRoutesOf } from "../../src/a2a/bindings.js";
import { A2A_JSON_MEDIA_TYPE } from "../../src/a2a/constants.js";
import { BAD_REQUEST_TYPE, ERROR_INFO_TYPE } from "../../src/a2a/error-wire.js";
import { TaskNotFoundError } from "../../src/a2a/errors.js";
import { headerValue } from "../../src/a2a/headers.js";
import { readSseEvents } from "../../src/a2a/sse.js";
import { createLogger } from "../../src/runtime/logger.js";
import type { HttpRequestLike } from "../../src/server/http-exchange.js";
import { HttpJsonBinding } from "../../src/server/http-json/http-json-binding.js";
import { FrameChannel, HandlerDouble } from "./support/handler-double.js";
import { type ServedBinding, serveBinding } from "./support/serve-binding.js";

const V1 = { "A2A-Version": "1.0" };

/** Minimal valid bodies of the RPCs that take one (test data, not routes). */
const SAMPLE_BODIES: Record<string, JsonObject> = {
  SendMessage: { message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }] } },
  SendStreamingMessage: { message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }] } },
  CancelTask: {},
  CreateTaskPushNotificationConfig: { url: "https://hooks.example/a2a" },
};

/** Values of the path variables, chosen to need percent-encoding. */
const VARIABLES: Record<string, string> = { tenant: "acme corp", id: "id/1:x", taskId: "task 1" };

function pathFor(binding: A2ABinding, template: string): string {
  return template.replace(/\{(\w+)(?:=\*)?\}/g, (_, name: string) => {
    const field = binding.input.fields.find((f) => f.name === name);
    return encodeURIComponent(VARIABLES[field?.jsonName ?? name] ?? "x");
  });
}

const statusUpdate = (state: TaskState): StreamResponse =>
  create(StreamResponseSchema, {
    payload: { case: "statusUpdate", value: { taskId: "t-1", contextId: "c-1", status: { state } } },
  });

async function sseFrames(response: Response): Promise<{ event: string | undefined; data: unknown }[]> {
  const out = [];
  for await (const event of readSseEvents(response.body!))
    out.push({ event: event.event, data: JSON.parse(event.data) });
  return out;
}

let double: HandlerDouble;
let served: ServedBinding;

beforeEach(async () => {
  double = new HandlerDouble();
  served = await serveBinding(new HttpJsonBinding(double.handler, { maxBodyBytes: 1024 }));
});
afterEach(async () => {
  await served[Symbol.asyncDispose]();
});

function send(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, headers, ...rest } = init;
  return fetch(`${served.url}${path}`, {
    ...rest,
    headers: { ...V1, ...(json === undefined ? {} : { "content-type": A2A_JSON_MEDIA_TYPE }), ...headers },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
}

function answerEverything(): void {
  for (const binding of a2aBindingList) {
    if (binding.kind === "server_streaming") {
      double.on(binding.name, () => {
        const channel = new FrameChannel<StreamResponse>();
        channel.push(statusUpdate(TaskState.COMPLETED));
        channel.end();
        return channel;
      });
    } else double.on(binding.name, async () => create(binding.output as DescMessage));
  }
}

describe("HTTP+JSON binding: routes", () => {
  it("serves every route of the generated table and its /{tenant} variant, the path reaching the request", async () => {
    answerEverything();
    for (const binding of a2aBindingList) {
      for (const route of httpRoutesOf(binding)) {
        const methods = binding.name === "SubscribeToTask" ? ["GET", "POST"] : [route.method];
        for (const method of methods) {
          const json = route.body === "*" ? SAMPLE_BODIES[binding.name] : undefined;
          const response = await send(pathFor(binding, route.template), { method, json });
          const label = `${method} ${route.template}`;
          expect(response.status, label).toBe(200);
          await response.arrayBuffer();
          const call = double.last();
          expect(call.rpc, label).toBe(binding.name);
          expect(call.context.binding).toBe("HTTP+JSON");
          const request = toJson(binding.input as DescMessage, call.request) as JsonObject;
          for (const segment of route.segments) {
            if ("variable" in segment)
              expect(request[segment.jsonPath[0]!], label).toBe(VARIABLES[segment.jsonPath[0]!]);
          }
          if (!route.tenant) expect(request.tenant, label).toBeUndefined();
        }
      }
    }
  });

  it("answers unary calls 200 with application/a2a+json, an empty result (DeleteTaskPushNotificationConfig) as {}", async () => {
    answerEverything();
    const deleted = await send("/tasks/t-1/pushNotificationConfigs/c-1", { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(deleted.headers.get("content-type")).toBe(A2A_JSON_MEDIA_TYPE);
    expect(await deleted.json()).toEqual({});
    const created = await send("/tasks/t-1/pushNotificationConfigs", {
      method: "POST",
      json: SAMPLE_BODIES.CreateTaskPushNotificationConfig,
    });
    expect(created.status).toBe(200);
  });

  it("emits REQUIRED response fields at their zero value", async () => {
    double.on("ListTasks", async () => create(a2aServiceBindings.ListTasks.output));
    const response = await send("/tasks");
    expect(await response.json()).toEqual({ tasks: [], nextPageToken: "", pageSize: 0, totalSize: 0 });
  });

  it("lets the path win over a body naming the same field (by JSON or proto name)", async () => {
    double.on("CreateTaskPushNotificationConfig", async (request) => request);
    const response = await send("/tasks/from-path/pushNotificationConfigs", {
      method: "POST",
      json: { task_id: "from-body", url: "https://hooks.example/a2a" },
    });
    expect(await response.json()).toMatchObject({ taskId: "from-path", url: "https://hooks.example/a2a" });
  });

  it("answers a wrong method on a served path 405 with Allow and a google.rpc.Status body", async () => {
    const response = await send("/tasks/t-1", { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
    const body = await response.json();
    expect(body.error).toMatchObject({ code: 405, status: "UNIMPLEMENTED" });
    expect(body.error.details[0]).toMatchObject({ "@type": ERROR_INFO_TYPE, reason: "METHOD_NOT_FOUND" });
    expect(double.calls).toHaveLength(0);
  });

  it("does not answer paths that are not HTTP+JSON routes (the adapter's 404 here)", async () => {
    const response = await send("/not/a/route");
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("Not Found");
  });
});

describe("HTTP+JSON binding: query parameters (§11.5)", () => {
  let request: () => ListTasksRequest;
  beforeEach(() => {
    double.on("ListTasks", async () => create(a2aServiceBindings.ListTasks.output));
    request = () => double.last().request as ListTasksRequest;
  });

  it("maps ListTasks parameters by their proto3 JSON names, timestamps and enums included", async () => {
    const query = new URLSearchParams({
      contextId: "c-1",
      status: "TASK_STATE_WORKING",
      pageSize: "50",
      pageToken: "cursor",
      historyLength: "0",
      statusTimestampAfter: "2025-11-09T10:30:00.500Z",
      includeArtifacts: "false",
    });
    expect((await send(`/tasks?${query}`)).status).toBe(200);
    const r = request();
    expect(r).toMatchObject({ contextId: "c-1", status: TaskState.WORKING, pageSize: 50, pageToken: "cursor" });
    expect(r.historyLength).toBe(0);
    expect(r.includeArtifacts).toBe(false);
    expect(r.statusTimestampAfter).toMatchObject({ seconds: 1762684200n, nanos: 500_000_000 });
  });

  it("accepts the proto field names and enum numbers too, and ignores unknown parameters", async () => {
    expect((await send("/tasks?context_id=c-2&status=3&page_size=5&unknownThing=1")).status).toBe(200);
    expect(request()).toMatchObject({ contextId: "c-2", status: TaskState.COMPLETED, pageSize: 5 });
  });

  it("leaves an absent parameter unset, so an unfiltered list is not filtered by UNSPECIFIED (a2a-js did, and listed nothing)", async () => {
    await send("/tasks");
    expect(request().status).toBe(TaskState.UNSPECIFIED);
    expect(request().pageSize).toBeUndefined();
    expect(request().includeArtifacts).toBeUndefined();
  });

  it("maps GetTask's historyLength beside the path id, and lets the path win over a query id", async () => {
    double.on("GetTask", async () => create(TaskSchema, { id: "t-1" }));
    await send("/tasks/t-1?historyLength=10&id=other");
    expect(double.last().request).toMatchObject({ id: "t-1", historyLength: 10 });
  });

  it.each([
    ["pageSize=ten", "pageSize"],
    ["includeArtifacts=yes", "includeArtifacts"],
    ["historyLength=1.5", "historyLength"],
    ["statusTimestampAfter=yesterday", "statusTimestampAfter"],
    ["pageSize=1&pageSize=2", "pageSize"],
  ])("refuses %s with 400 INVALID_PARAMS naming the field", async (query, field) => {
    const response = await send(`/tasks?${query}`);
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.status).toBe("INVALID_ARGUMENT");
    expect(error.details[0]).toMatchObject({ reason: "INVALID_PARAMS" });
    expect(error.details[1]["@type"]).toBe(BAD_REQUEST_TYPE);
    expect(error.details[1].fieldViolations[0].field).toBe(field);
    expect(double.calls).toHaveLength(0);
  });

  it("refuses an unknown enum name or number with 400, as the ProtoJSON decoder of every JSON body does", async () => {
    for (const status of ["TASK_STATE_FROM_THE_FUTURE", "99"]) {
      const response = await send(`/tasks?status=${status}`);
      expect(response.status).toBe(400);
      expect((await response.json()).error.details[1].fieldViolations[0].field).toBe("status");
    }
    expect(double.calls).toHaveLength(0);
    expect((await send("/tasks?status=TASK_STATE_WORKING")).status).toBe(200);
    expect(request().status).toBe(TaskState.WORKING);
  });

  it("takes A2A-Version from the query when the header is absent (§3.6.1); the header wins", async () => {
    await fetch(`${served.url}/tasks?A2A-Version=1.0`);
    expect(headerValue(double.last().context.headers, "a2a-version")).toBe("1.0");
    await fetch(`${served.url}/tasks?A2A-Version=0.3`, { headers: { "A2A-Version": "1.0", "X-Other": "kept" } });
    expect(headerValue(double.last().context.headers, "a2a-version")).toBe("1.0");
    expect(headerValue(double.last().context.headers, "x-other")).toBe("kept");
  });

  it("leaves the query string unparsed when the request sends the A2A-Version header", async () => {
    answerEverything();
    let queryReads = 0;
    const body = new TextEncoder().encode(JSON.stringify(SAMPLE_BODIES.SendMessage));
    const request: HttpRequestLike = {
      method: "POST",
      path: "/message:send",
      headers: { "a2a-version": "1.0", "content-type": "application/json" },
      get query() {
        queryReads++;
        return new URLSearchParams("A2A-Version=0.3");
      },
      signal: new AbortController().signal,
      body: async () => body,
    };
    const reply = await new HttpJsonBinding(double.handler).handle(request);
    expect(reply?.status).toBe(200);
    expect(headerValue(double.last().context.headers, "a2a-version")).toBe("1.0");
    expect(queryReads).toBe(0);
  });
});

describe("HTTP+JSON binding: bodies and content types", () => {
  beforeEach(() => answerEverything());

  it.each([
    "application/json",
    "application/a2a+json",
    "application/json; charset=utf-8",
    'Application/A2A+JSON; charset="UTF-8"',
  ])("accepts %s", async (contentType) => {
    const response = await send("/message:send", {
      method: "POST",
      headers: { "content-type": contentType },
      body: JSON.stringify(SAMPLE_BODIES.SendMessage),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(A2A_JSON_MEDIA_TYPE);
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1", "application/jsonx"])(
    "refuses %s with 400 CONTENT_TYPE_NOT_SUPPORTED",
    async (contentType) => {
      const response = await send("/message:send", {
        method: "POST",
        headers: { "content-type": contentType },
        body: JSON.stringify(SAMPLE_BODIES.SendMessage),
      });
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toBe(A2A_JSON_MEDIA_TYPE);
      const { error } = await response.json();
      expect(error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
      expect(error.details[0]).toMatchObject({ reason: "CONTENT_TYPE_NOT_SUPPORTED", domain: "a2a-protocol.org" });
      expect(double.calls).toHaveLength(0);
    },
  );

  it("refuses a body sent without a Content-Type, but takes an empty one as {} (a2a-js :cancel)", async () => {
    const bare = await fetch(`${served.url}/message:send`, {
      method: "POST",
      headers: V1,
      body: new Blob([JSON.stringify(SAMPLE_BODIES.SendMessage)]),
    });
    expect(bare.status).toBe(400);
    expect((await bare.json()).error.details[0].reason).toBe("CONTENT_TYPE_NOT_SUPPORTED");
    const cancel = await fetch(`${served.url}/tasks/t-1:cancel`, { method: "POST", headers: V1 });
    expect(cancel.status).toBe(200);
    expect(double.last().request).toMatchObject({ id: "t-1" });
  });

  it.each([
    ["not JSON", "{", "JSON_PARSE"],
    ["not UTF-8", new Uint8Array([0x7b, 0xff, 0x7d]), "JSON_PARSE"],
    ["an array", "[]", "INVALID_PARAMS"],
    ["missing REQUIRED fields", '{"message":{"role":"ROLE_USER"}}', "INVALID_PARAMS"],
    ["over the size cap", JSON.stringify({ metadata: { pad: "x".repeat(2000) } }), "JSON_PARSE"],
  ])("answers a body that is %s with 400 %s", async (_, body, reason) => {
    const response = await send("/message:send", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.details[0].reason).toBe(reason);
    expect(double.calls).toHaveLength(0);
  });

  it("names every missing REQUIRED field in a BadRequest", async () => {
    const response = await send("/message:send", { method: "POST", json: { message: { role: "ROLE_USER" } } });
    const { error } = await response.json();
    expect(error.details[1].fieldViolations.map((v: { field: string }) => v.field).sort()).toEqual([
      "message.messageId",
      "message.parts",
    ]);
  });

  it("answers a malformed percent-encoding in the path with 400 INVALID_PARAMS", async () => {
    const response = await send("/tasks/%E0%A4%A");
    expect(response.status).toBe(400);
    expect((await response.json()).error.details[0].reason).toBe("INVALID_PARAMS");
  });
});

describe("HTTP+JSON binding: errors", () => {
  it("answers an A2A error with its table status and a google.rpc.Status body carrying ErrorInfo", async () => {
    double.on("GetTask", async () => {
      throw new TaskNotFoundError("Task with ID 't-9' not found", { metadata: { taskId: "t-9" } });
    });
    const response = await send("/tasks/t-9");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe(A2A_JSON_MEDIA_TYPE);
    expect(await response.json()).toEqual({
      error: {
        code: 404,
        status: "NOT_FOUND",
        message: "Task with ID 't-9' not found",
        details: [
          {
            "@type": ERROR_INFO_TYPE,
            reason: "TASK_NOT_FOUND",
            domain: "a2a-protocol.org",
            metadata: { taskId: "t-9" },
          },
        ],
      },
    });
  });

  it("logs an unexpected exception for the operator, and no A2A error", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "error", destination: { write: (line: string) => lines.push(line) } });
    await using logged = await serveBinding(new HttpJsonBinding(double.handler, { logger }));
    double.on("GetTask", async (request) => {
      if ((request as GetTaskRequest).id === "missing") throw new TaskNotFoundError();
      throw new Error("disk on fire");
    });
    expect((await fetch(`${logged.url}/tasks/missing`, { headers: V1 })).status).toBe(404);
    expect(lines).toHaveLength(0);
    expect((await fetch(`${logged.url}/tasks/t-1`, { headers: V1 })).status).toBe(500);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("disk on fire");
  });

  it("answers an unexpected exception 500 INTERNAL without leaking it", async () => {
    double.on("GetTask", async () => {
      throw new Error("db password is hunter2");
    });
    const response = await send("/tasks/t-1");
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("hunter2");
    expect(JSON.parse(text).error).toMatchObject({ code: 500, status: "INTERNAL", message: "Internal error" });
  });

  it("sends the response headers the handler set, on success and on error", async () => {
    double.on("GetTask", async (_, context) => {
      context.responseHeaders.set("A2A-Extensions", "https://ext.example/a");
      if ((_ as GetTaskRequest).id === "bad") throw new TaskNotFoundError();
      return create(TaskSchema, { id: "t-1" });
    });
    expect((await send("/tasks/t-1")).headers.get("a2a-extensions")).toBe("https://ext.example/a");
    const failed = await send("/tasks/bad");
    expect(failed.status).toBe(404);
    expect(failed.headers.get("a2a-extensions")).toBe("https://ext.example/a");
  });

  it("passes every request header (service parameters, credentials) to the handler", async () => {
    double.on("GetTask", async () => create(TaskSchema, { id: "t-1" }));
    await send("/tasks/t-1", { headers: { "A2A-Extensions": "https://ext.example/a", Authorization: "Bearer tok" } });
    const { headers } = double.last().context;
    expect(headerValue(headers, "a2a-version")).toBe("1.0");
    expect(headerValue(headers, "a2a-extensions")).toBe("https://ext.example/a");
    expect(headerValue(headers, "authorization")).toBe("Bearer tok");
  });
});

describe("HTTP+JSON binding: streaming (§11.7)", () => {
  it("streams bare StreamResponse objects as SSE, no JSON-RPC envelope", async () => {
    const channel = new FrameChannel<StreamResponse>();
    double.on("SendStreamingMessage", () => channel);
    channel.push(statusUpdate(TaskState.WORKING));
    channel.push(statusUpdate(TaskState.COMPLETED));
    channel.end();
    const response = await send("/message:stream", { method: "POST", json: SAMPLE_BODIES.SendStreamingMessage });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const frames = await sseFrames(response);
    expect(frames).toEqual([
      { event: undefined, data: toJson(StreamResponseSchema, statusUpdate(TaskState.WORKING)) },
      { event: undefined, data: toJson(StreamResponseSchema, statusUpdate(TaskState.COMPLETED)) },
    ]);
    expect(frames[0]?.data).toHaveProperty("statusUpdate.status.state", "TASK_STATE_WORKING");
  });

  it("answers an error raised before the first frame as an ordinary error response", async () => {
    double.on("SubscribeToTask", () => {
      const channel = new FrameChannel<StreamResponse>();
      channel.fail(new TaskNotFoundError(undefined, { metadata: { taskId: "t-9" } }));
      return channel;
    });
    const response = await send("/tasks/t-9:subscribe", { method: "POST" });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe(A2A_JSON_MEDIA_TYPE);
    expect((await response.json()).error.details[0]).toMatchObject({ reason: "TASK_NOT_FOUND" });
  });

  it("holds the response head until the first frame, so the handler's response headers are sent", async () => {
    const channel = new FrameChannel<StreamResponse>();
    double.on("SendStreamingMessage", (_, context) => {
      void channel.waiting.then(() => {
        context.responseHeaders.set("A2A-Extensions", "https://ext.example/a");
        channel.push(statusUpdate(TaskState.COMPLETED));
        channel.end();
      });
      return channel;
    });
    const response = await send("/message:stream", { method: "POST", json: SAMPLE_BODIES.SendStreamingMessage });
    expect(response.headers.get("a2a-extensions")).toBe("https://ext.example/a");
    expect(await sseFrames(response)).toHaveLength(1);
  });

  it("ends the stream with an `event: error` google.rpc.Status after a mid-stream failure", async () => {
    const channel = new FrameChannel<StreamResponse>();
    double.on("SendStreamingMessage", () => channel);
    channel.push(statusUpdate(TaskState.WORKING));
    void channel.waiting.then(() => channel.fail(new Error("boom: secret")));
    const response = await send("/message:stream", { method: "POST", json: SAMPLE_BODIES.SendStreamingMessage });
    const frames = await sseFrames(response);
    expect(frames).toHaveLength(2);
    expect(frames[1]).toEqual({
      event: "error",
      data: {
        error: {
          code: 500,
          status: "INTERNAL",
          message: "Internal error",
          details: [{ "@type": ERROR_INFO_TYPE, reason: "INTERNAL", domain: "a2a-protocol.org" }],
        },
      },
    });
  });

  it("detaches when the client drops the stream: the handler's iterator is returned and its signal aborts", async () => {
    const channel = new FrameChannel<StreamResponse>();
    double.on("SubscribeToTask", () => channel);
    channel.push(statusUpdate(TaskState.WORKING));
    const abort = new AbortController();
    const response = await fetch(`${served.url}/acme/tasks/t-1:subscribe`, { headers: V1, signal: abort.signal });
    const reader = response.body!.getReader();
    await reader.read();
    await channel.waiting;
    const { signal } = double.last().context;
    const aborted = new Promise((resolve) => signal.addEventListener("abort", resolve));
    abort.abort();
    await Promise.all([channel.returned, aborted]);
    expect(signal.aborted).toBe(true);
    expect(double.last().request).toMatchObject({ tenant: "acme", id: "t-1" });
  });

  it("does not abort the call's signal when the stream ends normally", async () => {
    const channel = new FrameChannel<StreamResponse>();
    double.on("SendStreamingMessage", () => channel);
    channel.push(statusUpdate(TaskState.COMPLETED));
    channel.end();
    const response = await send("/message:stream", { method: "POST", json: SAMPLE_BODIES.SendStreamingMessage });
    await sseFrames(response);
    expect(double.last().context.signal.aborted).toBe(false);
  });
});
