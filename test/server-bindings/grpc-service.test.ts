import { getEventListeners, once } from "node:events";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create, type DescMessage, fromJson, type JsonObject, type Message, toJson } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
  Http2SessionManager,
} from "@connectrpc/connect-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  A2AService,
  type GetTaskRequest,
  type StreamResponse,
  StreamResponseSchema,
  TaskSchema,
  TaskState,
} from "../../gen/a2a_pb.js";
import { BadRequestSchema, ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { a2aBindingList } from "../../src/a2a/bindings.js";
import { TaskNotFoundError } from "../../src/a2a/errors.js";
import { headerValue } from "../../src/a2a/headers.js";
import { invalidParams } from "../../src/a2a/protojson.js";
import { createLogger } from "../../src/runtime/logger.js";
import { createGrpcNodeHandler, type GrpcServer, listenGrpc } from "../../src/server/grpc/grpc-server.js";
import { handlerMethodName } from "../../src/server/request-handler.js";
import { FrameChannel, HandlerDouble } from "./support/handler-double.js";

/** Minimal valid requests of every RPC (test data), each for tenant `acme`. */
const SAMPLE_REQUESTS: Record<string, JsonObject> = {
  SendMessage: { message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }] } },
  SendStreamingMessage: { message: { messageId: "m-1", role: "ROLE_USER", parts: [{ text: "hi" }] } },
  GetTask: { id: "t-1", historyLength: 3 },
  ListTasks: { status: "TASK_STATE_WORKING", statusTimestampAfter: "2025-11-09T10:30:00Z" },
  CancelTask: { id: "t-1" },
  SubscribeToTask: { id: "t-1" },
  CreateTaskPushNotificationConfig: { taskId: "t-1", url: "https://hooks.example/a2a" },
  GetTaskPushNotificationConfig: { taskId: "t-1", id: "c-1" },
  ListTaskPushNotificationConfigs: { taskId: "t-1" },
  GetExtendedAgentCard: {},
  DeleteTaskPushNotificationConfig: { taskId: "t-1", id: "c-1" },
};

const METADATA = { "a2a-version": "1.0", "a2a-extensions": "https://ext.example/a", authorization: "Bearer tok" };

const statusUpdate = (state: TaskState): StreamResponse =>
  create(StreamResponseSchema, {
    payload: { case: "statusUpdate", value: { taskId: "t-1", contextId: "c-1", status: { state } } },
  });

let double: HandlerDouble;
let server: GrpcServer;
let sessions: Http2SessionManager[];

function transport(kind: "grpc" | "connect" | "grpc-web" = "grpc"): Transport {
  const baseUrl = `http://${server.target}`;
  const sessionManager = new Http2SessionManager(baseUrl);
  sessions.push(sessionManager);
  const options = { baseUrl, httpVersion: "2" as const, sessionManager };
  if (kind === "connect") return createConnectTransport(options);
  if (kind === "grpc-web") return createGrpcWebTransport(options);
  return createGrpcTransport(options);
}

beforeEach(async () => {
  double = new HandlerDouble();
  sessions = [];
  server = await listenGrpc(double.handler, { port: 0 });
});
afterEach(async () => {
  for (const s of sessions) s.abort();
  await server.close();
});

async function rejection(promise: Promise<unknown>): Promise<ConnectError> {
  try {
    await promise;
  } catch (e) {
    return ConnectError.from(e);
  }
  throw new Error("the call succeeded");
}

describe("gRPC binding: A2AService over the request handler", () => {
  it("serves every RPC of the generated table, metadata reaching the handler as service parameters", async () => {
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
    const client = createClient(A2AService, transport()) as unknown as Record<string, Function>;
    for (const binding of a2aBindingList) {
      const request = fromJson(binding.input as DescMessage, { ...SAMPLE_REQUESTS[binding.name], tenant: "acme" });
      const call = client[handlerMethodName(binding.name)]!(request, { headers: METADATA });
      if (binding.kind === "server_streaming") {
        const frames: Message[] = [];
        for await (const frame of call as AsyncIterable<Message>) frames.push(frame);
        expect(frames, binding.name).toHaveLength(1);
      } else await call;
      const reached = double.last();
      expect(reached.rpc).toBe(binding.name);
      expect(toJson(binding.input as DescMessage, reached.request)).toEqual(
        toJson(binding.input as DescMessage, request),
      );
      expect(reached.context.binding).toBe("GRPC");
      for (const [name, value] of Object.entries(METADATA))
        expect(headerValue(reached.context.headers, name)).toBe(value);
    }
  });

  it("answers an A2A error with its table status code and ErrorInfo in the status details", async () => {
    double.on("GetTask", async () => {
      throw new TaskNotFoundError("Task with ID 't-9' not found", { metadata: { taskId: "t-9" } });
    });
    const error = await rejection(createClient(A2AService, transport()).getTask({ id: "t-9" }, { headers: METADATA }));
    expect(error.code).toBe(Code.NotFound);
    expect(error.rawMessage).toBe("Task with ID 't-9' not found");
    const [info] = error.findDetails(ErrorInfoSchema);
    expect(info).toMatchObject({ reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org", metadata: { taskId: "t-9" } });
  });

  it("carries further google.rpc details (BadRequest) after the ErrorInfo", async () => {
    double.on("GetTask", async () => {
      throw invalidParams([{ field: "historyLength", description: "too long" }]);
    });
    const error = await rejection(createClient(A2AService, transport()).getTask({ id: "t-1" }));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.findDetails(ErrorInfoSchema)[0]?.reason).toBe("INVALID_PARAMS");
    expect(error.findDetails(BadRequestSchema)[0]?.fieldViolations[0]).toMatchObject({ field: "historyLength" });
  });

  it("checks REQUIRED fields as the JSON bindings do, before the handler sees the request", async () => {
    const error = await rejection(createClient(A2AService, transport()).getTask({}));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.findDetails(BadRequestSchema)[0]?.fieldViolations.map((v) => v.field)).toEqual(["id"]);
    expect(double.calls).toHaveLength(0);
  });

  it("answers an unexpected exception INTERNAL without leaking it", async () => {
    double.on("GetTask", async () => {
      throw new Error("db password is hunter2");
    });
    const error = await rejection(createClient(A2AService, transport()).getTask({ id: "t-1" }));
    expect(error.code).toBe(Code.Internal);
    expect(error.rawMessage).toBe("Internal error");
    expect(JSON.stringify(error.details)).not.toContain("hunter2");
  });

  it("logs an unexpected exception for the operator, and no A2A error", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "error", destination: { write: (line: string) => lines.push(line) } });
    await server.close();
    server = await listenGrpc(double.handler, { port: 0, logger });
    double.on("GetTask", async (request) => {
      if ((request as GetTaskRequest).id === "missing") throw new TaskNotFoundError();
      throw new Error("disk on fire");
    });
    const client = createClient(A2AService, transport());
    expect((await rejection(client.getTask({ id: "missing" }))).code).toBe(Code.NotFound);
    expect(lines).toHaveLength(0);
    expect((await rejection(client.getTask({ id: "t-1" }))).code).toBe(Code.Internal);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("disk on fire");
  });

  it("sends the response metadata the handler set", async () => {
    double.on("GetTask", async (_, context) => {
      context.responseHeaders.set("a2a-extensions", "https://ext.example/a");
      return create(TaskSchema, { id: "t-1" });
    });
    let extensions: string | null = null;
    await createClient(A2AService, transport()).getTask(
      { id: "t-1" },
      { onHeader: (headers) => (extensions = headers.get("a2a-extensions")) },
    );
    expect(extensions).toBe("https://ext.example/a");
  });

  it.each(["connect", "grpc-web"] as const)(
    "also answers the %s protocol on the same port, errors included",
    async (kind) => {
      double.on("GetTask", async (request) => {
        if ((request as GetTaskRequest).id === "missing") throw new TaskNotFoundError();
        return create(TaskSchema, { id: "t-1" });
      });
      const client = createClient(A2AService, transport(kind));
      expect((await client.getTask({ id: "t-1" })).id).toBe("t-1");
      const error = await rejection(client.getTask({ id: "missing" }));
      expect(error.code).toBe(Code.NotFound);
      expect(error.findDetails(ErrorInfoSchema)[0]?.reason).toBe("TASK_NOT_FOUND");
    },
  );
});

describe("gRPC binding: the shutdown signal", () => {
  it("takes many calls in flight without a listener-leak warning, and lets go of each when it ends", async () => {
    const shutdown = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    const gates: (() => void)[] = [];
    // Each call watches its signal (a unary call that never reads it attaches nothing).
    double.on("GetTask", (_request, context) => {
      void context.signal;
      return new Promise((resolve) => gates.push(() => resolve(create(TaskSchema, { id: "t" }))));
    });
    const h2 = http2.createServer(createGrpcNodeHandler(double.handler, { shutdownSignal: shutdown.signal }));
    h2.listen(0, "127.0.0.1");
    await once(h2, "listening");
    const baseUrl = `http://127.0.0.1:${(h2.address() as AddressInfo).port}`;
    const sessionManager = new Http2SessionManager(baseUrl);
    const client = createClient(A2AService, createGrpcTransport({ baseUrl, sessionManager }));
    try {
      const calls = Array.from({ length: 32 }, () => client.getTask({ id: "t" }));
      while (double.calls.length < 32) await double.nextCall();
      expect(getEventListeners(shutdown.signal, "abort").length).toBeGreaterThanOrEqual(32);
      for (const open of gates) open();
      await Promise.all(calls);
      await new Promise((resolve) => setImmediate(resolve));
      expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      sessionManager.abort();
      h2.close();
    }
  });
});

describe("gRPC binding: server streaming", () => {
  it("streams the handler's frames, with response metadata set before the first", async () => {
    const channel = new FrameChannel<StreamResponse>();
    double.on("SendStreamingMessage", (_, context) => {
      context.responseHeaders.set("a2a-extensions", "https://ext.example/a");
      return channel;
    });
    channel.push(statusUpdate(TaskState.WORKING));
    channel.push(statusUpdate(TaskState.COMPLETED));
    channel.end();
    let extensions: string | null = null;
    const frames: StreamResponse[] = [];
    for await (const frame of createClient(A2AService, transport()).sendStreamingMessage(
      fromJson(A2AService.method.sendStreamingMessage.input, SAMPLE_REQUESTS.SendStreamingMessage!),
      { onHeader: (h) => (extensions = h.get("a2a-extensions")) },
    )) {
      frames.push(frame);
    }
    expect(frames.map((f) => toJson(StreamResponseSchema, f))).toEqual([
      toJson(StreamResponseSchema, statusUpdate(TaskState.WORKING)),
      toJson(StreamResponseSchema, statusUpdate(TaskState.COMPLETED)),
    ]);
    expect(extensions).toBe("https://ext.example/a");
  });

  it("answers an error before the first frame, and one after frames, as the call's status", async () => {
    double.on("SubscribeToTask", (request) => {
      const channel = new FrameChannel<StreamResponse>();
      if ((request as GetTaskRequest).id === "late") channel.push(statusUpdate(TaskState.WORKING));
      channel.fail(new TaskNotFoundError(undefined, { metadata: { taskId: "t-9" } }));
      return channel;
    });
    const client = createClient(A2AService, transport());
    for (const id of ["early", "late"]) {
      const frames: StreamResponse[] = [];
      const error = await rejection(
        (async () => {
          for await (const frame of client.subscribeToTask({ id })) frames.push(frame);
        })(),
      );
      expect(error.code, id).toBe(Code.NotFound);
      expect(error.findDetails(ErrorInfoSchema)[0]?.metadata).toEqual({ taskId: "t-9" });
      expect(frames).toHaveLength(id === "late" ? 1 : 0);
    }
  });

  it("detaches when the caller cancels: the handler's iterator is returned and its signal aborts", async () => {
    const channel = new FrameChannel<StreamResponse>();
    double.on("SubscribeToTask", () => channel);
    channel.push(statusUpdate(TaskState.WORKING));
    const abort = new AbortController();
    const stream = createClient(A2AService, transport()).subscribeToTask({ id: "t-1" }, { signal: abort.signal });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    await channel.waiting;
    const { signal } = double.last().context;
    const aborted = new Promise((resolve) => signal.addEventListener("abort", resolve));
    abort.abort();
    await Promise.all([channel.returned, aborted]);
    await iterator.return?.();
  });

  it("detaches a unary call whose caller cancels (the handler sees its signal abort)", async () => {
    let serverSawAbort: () => void = () => undefined;
    const aborted = new Promise<void>((resolve) => {
      serverSawAbort = resolve;
    });
    double.on(
      "SendMessage",
      (_, context) =>
        new Promise((_, reject) => {
          context.signal.addEventListener("abort", () => {
            serverSawAbort();
            reject(context.signal.reason);
          });
        }),
    );
    const reached = double.nextCall();
    const abort = new AbortController();
    const call = createClient(A2AService, transport()).sendMessage(
      fromJson(A2AService.method.sendMessage.input, SAMPLE_REQUESTS.SendMessage!),
      { signal: abort.signal },
    );
    await reached;
    abort.abort();
    expect((await rejection(call)).code).toBe(Code.Canceled);
    await aborted;
  });

  it("does not abort the call's signal when the RPC completes", async () => {
    double.on("GetTask", async () => create(TaskSchema, { id: "t-1" }));
    await createClient(A2AService, transport()).getTask({ id: "t-1" });
    expect(double.last().context.signal.aborted).toBe(false);
  });

  it("detaches the streams in flight when the server closes", async () => {
    const channel = new FrameChannel<StreamResponse>();
    double.on("SubscribeToTask", () => channel);
    channel.push(statusUpdate(TaskState.WORKING));
    const iterator = createClient(A2AService, transport()).subscribeToTask({ id: "t-1" })[Symbol.asyncIterator]();
    await iterator.next();
    await channel.waiting;
    await Promise.all([server.close(), channel.returned]);
    expect(double.last().context.signal.aborted).toBe(true);
    await iterator.return?.();
  });
});
