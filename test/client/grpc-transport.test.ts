/** The gRPC binding against a connect-node gRPC server built on the same generated descriptor. */
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { afterEach, describe, expect, it } from "vitest";
import { A2AService, AgentCardSchema, type StreamResponseSchema, TaskSchema } from "../../gen/a2a_pb.js";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import {
  InternalError,
  InvalidAgentResponseError,
  InvalidRequestError,
  MethodNotFoundError,
  TaskNotCancelableError,
  TaskNotFoundError,
} from "../../src/a2a/errors.js";
import { A2AExtension, ExtensionRegistry } from "../../src/a2a/extensions.js";
import { Client } from "../../src/client/client.js";
import {
  NovaOSAuthenticationError,
  NovaOSConnectionError,
  NovaOSError,
  NovaOSRateLimitError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { BearerTokenAuth } from "../../src/http/auth.js";

interface GrpcServer {
  readonly url: string;
  readonly contexts: HandlerContext[];
  /** Resolves when every HTTP/2 session a client opened has closed. */
  sessionsClosed(): Promise<void>;
  dropConnections(): void;
  close(): Promise<void>;
}

const task = (id = "t1", state = 2) => create(TaskSchema, { id, contextId: "c1", status: { state } });
const frame = (init: MessageInitShape<typeof StreamResponseSchema>["payload"]) => ({ payload: init });

async function startGrpcServer(
  impl: Partial<ServiceImpl<typeof A2AService>>,
  limits: { readMaxBytes?: number; writeMaxBytes?: number } = {},
): Promise<GrpcServer> {
  const contexts: HandlerContext[] = [];
  const wrapped = Object.fromEntries(
    Object.entries(impl).map(([name, fn]) => [
      name,
      (request: unknown, context: HandlerContext) => {
        contexts.push(context);
        return (fn as (r: unknown, c: HandlerContext) => unknown)(request, context);
      },
    ]),
  );
  const server = http2.createServer(
    connectNodeAdapter({
      grpc: true,
      connect: false,
      grpcWeb: false,
      ...limits,
      routes: (router: ConnectRouter) => router.service(A2AService, wrapped),
    }),
  );
  const sessions = new Set<http2.ServerHttp2Session>();
  const closed: Promise<void>[] = [];
  server.on("session", (session) => {
    sessions.add(session);
    closed.push(new Promise((resolve) => session.once("close", () => resolve())));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    contexts,
    sessionsClosed: async () => {
      await Promise.all(closed);
    },
    dropConnections: () => {
      for (const session of sessions) session.destroy();
    },
    close: async () => {
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let server: GrpcServer | undefined;
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

function a2aError(code: Code, reason: string): ConnectError {
  return new ConnectError("from the agent", code, undefined, [
    { desc: ErrorInfoSchema, value: { reason, domain: "a2a-protocol.org", metadata: { taskId: "t1" } } },
  ]);
}

describe("gRPC calls", () => {
  it("sends service parameters and credentials as metadata, and the tenant in the request", async () => {
    let tenant = "";
    server = await startGrpcServer({
      getTask: (request) => {
        tenant = request.tenant;
        return task(request.id);
      },
    });
    const extensions = new ExtensionRegistry([new A2AExtension({ uri: "https://ext.example/a" })]);
    await using client = new Client({
      transports: [grpcTransport()],
      baseUrl: server.url,
      binding: "GRPC",
      tenant: "acme",
      auth: new BearerTokenAuth("tok"),
      extensions,
    });
    const got = await client.getTask("t1");
    expect(got.id).toBe("t1");
    expect(tenant).toBe("acme");
    const header = server.contexts[0]?.requestHeader;
    expect(header?.get("a2a-version")).toBe("1.0");
    expect(header?.get("a2a-extensions")).toBe("https://ext.example/a");
    expect(header?.get("authorization")).toBe("Bearer tok");
  });

  it("reads the A2A ErrorInfo from the status details", async () => {
    server = await startGrpcServer({
      cancelTask: () => {
        throw a2aError(Code.FailedPrecondition, "TASK_NOT_CANCELABLE");
      },
    });
    await using client = new Client({ transports: [grpcTransport()], baseUrl: server.url, binding: "GRPC" });
    const error = await failure(client.cancelTask("t1"));
    expect(error).toBeInstanceOf(TaskNotCancelableError);
    expect((error as TaskNotCancelableError).taskId).toBe("t1");
    expect((error as Error).message).toBe("from the agent");
  });

  it.each([
    [Code.Unauthenticated, NovaOSAuthenticationError],
    [Code.PermissionDenied, NovaOSAuthenticationError],
    [Code.ResourceExhausted, NovaOSRateLimitError],
    [Code.Unavailable, NovaOSConnectionError],
    [Code.NotFound, TaskNotFoundError],
    [Code.Unimplemented, MethodNotFoundError],
    [Code.Internal, InternalError],
    [Code.InvalidArgument, InvalidRequestError],
  ])("status %i without an ErrorInfo is %o", async (code, ErrorClass) => {
    server = await startGrpcServer({
      getTask: () => {
        throw new ConnectError("plain", code);
      },
    });
    await using client = new Client({ transports: [grpcTransport()], baseUrl: server.url, binding: "GRPC" });
    expect(await failure(client.getTask("t1"))).toBeInstanceOf(ErrorClass);
  });

  it("a message over a size cap is never a rate limit: a reply is -32006, a request a validation error", async () => {
    const big = () => create(TaskSchema, { ...task(), metadata: { text: "x".repeat(50_000) } });
    server = await startGrpcServer({ getTask: big }, { writeMaxBytes: 20_000 });
    await using client = new Client({
      transports: [grpcTransport()],
      baseUrl: server.url,
      binding: "GRPC",
      maxResponseBytes: 10_000,
    });
    // Over the agent's own write cap: the agent answers RESOURCE_EXHAUSTED about its reply.
    const overAgentCap = await failure(client.getTask("t1"));
    expect(overAgentCap).toBeInstanceOf(InvalidAgentResponseError);
    expect((overAgentCap as NovaOSError).isRetryable).toBe(false);
    await server.close();
    server = await startGrpcServer({ getTask: big, sendMessage: () => ({}) }, { readMaxBytes: 1000 });
    await using capped = new Client({
      transports: [grpcTransport()],
      baseUrl: server.url,
      binding: "GRPC",
      maxResponseBytes: 10_000,
    });
    // Over this client's cap: connect refuses the reply while reading it.
    const overClientCap = await failure(capped.getTask("t1"));
    expect(overClientCap).toBeInstanceOf(InvalidAgentResponseError);
    expect((overClientCap as InvalidAgentResponseError).metadata).toEqual({ maxBytes: "10000" });
    expect((overClientCap as NovaOSError).isRetryable).toBe(false);
    // A request over the agent's read cap cannot succeed if sent again.
    const tooLarge = await failure(capped.sendMessage("y".repeat(5000)));
    expect(tooLarge).toBeInstanceOf(NovaOSValidationError);
    expect((tooLarge as NovaOSError).isRetryable).toBe(false);
  });

  it("dials a bare host:port and grpc:// target in cleartext, and infers gRPC from them", async () => {
    server = await startGrpcServer({ getTask: (request) => task(request.id) });
    const target = new URL(server.url).host;
    await using bare = new Client({ transports: [grpcTransport()], baseUrl: target });
    expect(bare.binding).toBe("GRPC");
    expect((await bare.getTask("t1")).id).toBe("t1");
    await using scheme = new Client({ transports: [grpcTransport()], baseUrl: `grpc://${target}` });
    expect((await scheme.getTask("t2")).id).toBe("t2");
    const card = create(AgentCardSchema, {
      supportedInterfaces: [{ url: target, protocolBinding: "GRPC", protocolVersion: "1.0", tenant: "t" }],
    });
    await using fromCard = Client.fromAgentCard(card, { transports: [grpcTransport()] });
    expect([fromCard.binding, fromCard.tenant]).toEqual(["GRPC", "t"]);
    expect((await fromCard.getTask("t3")).id).toBe("t3");
  });

  it("an unreachable agent is a NovaOSConnectionError", async () => {
    server = await startGrpcServer({});
    const url = server.url;
    await server.close();
    server = undefined;
    await using client = new Client({ transports: [grpcTransport()], baseUrl: url, binding: "GRPC" });
    expect(await failure(client.getTask("t1"))).toBeInstanceOf(NovaOSConnectionError);
  });

  it("passes grpcTransport({ nodeOptions }) to http2.connect (e.g. a guarded lookup)", async () => {
    server = await startGrpcServer({ getTask: (request) => task(request.id) });
    const port = new URL(server.url).port;
    const looked: string[] = [];
    await using client = new Client({
      baseUrl: `http://agent.example.test:${port}`,
      binding: "GRPC",
      transports: [
        grpcTransport({
          nodeOptions: {
            lookup: ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
              looked.push(hostname);
              if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
              else callback(null, "127.0.0.1", 4);
            }) as never,
          },
        }),
      ],
    });
    expect((await client.getTask("t1")).id).toBe("t1");
    expect(looked).toEqual(["agent.example.test"]);
  });

  it("a connect-time guard's own error reaches the caller as is; other local failures are connection errors", async () => {
    server = await startGrpcServer({ getTask: (request) => task(request.id) });
    const port = new URL(server.url).port;
    const refusal = new NovaOSError("address refused by the guard");
    const refusing = (error: Error) =>
      ((_host: string, _options: unknown, callback: (e: Error) => void) => callback(error)) as never;
    await using guarded = new Client({
      baseUrl: `http://agent.example.test:${port}`,
      binding: "GRPC",
      transports: [grpcTransport({ nodeOptions: { lookup: refusing(refusal) } })],
    });
    expect(await failure(guarded.getTask("t1"))).toBe(refusal);
    await using broken = new Client({
      baseUrl: `http://agent.example.test:${port}`,
      binding: "GRPC",
      transports: [grpcTransport({ nodeOptions: { lookup: refusing(new TypeError("resolver exploded")) } })],
    });
    expect(await failure(broken.getTask("t1"))).toBeInstanceOf(NovaOSConnectionError);
  });

  it("close() closes the HTTP/2 connection", async () => {
    server = await startGrpcServer({ getTask: (request) => task(request.id) });
    const client = new Client({ transports: [grpcTransport()], baseUrl: server.url, binding: "GRPC" });
    await client.getTask("t1");
    await client.close();
    await server.sessionsClosed();
  });
});

describe("gRPC streams", () => {
  it("streams frames to the last one", async () => {
    server = await startGrpcServer({
      async *sendStreamingMessage() {
        yield frame({ case: "task", value: task() });
        yield frame({ case: "statusUpdate", value: { taskId: "t1", contextId: "c1", status: { state: 3 } } });
      },
    });
    await using client = new Client({ transports: [grpcTransport()], baseUrl: server.url, binding: "GRPC" });
    const cases = [];
    for await (const f of client.sendStreamingMessage("go")) cases.push(f.payload.case);
    expect(cases).toEqual(["task", "statusUpdate"]);
  });

  it("an error status after some frames is thrown as its class", async () => {
    server = await startGrpcServer({
      async *subscribeToTask() {
        yield frame({ case: "task", value: task() });
        throw a2aError(Code.NotFound, "TASK_NOT_FOUND");
      },
    });
    await using client = new Client({ transports: [grpcTransport()], baseUrl: server.url, binding: "GRPC" });
    const seen: unknown[] = [];
    const error = await failure(
      (async () => {
        for await (const f of client.subscribeToTask("t1")) seen.push(f);
      })(),
    );
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(TaskNotFoundError);
  });

  it("a connection dropped mid-stream is a NovaOSConnectionError", async () => {
    let dropped!: () => void;
    const ready = new Promise<void>((resolve) => {
      dropped = resolve;
    });
    server = await startGrpcServer({
      async *sendStreamingMessage() {
        yield frame({ case: "task", value: task() });
        await ready;
      },
    });
    await using client = new Client({ transports: [grpcTransport()], baseUrl: server.url, binding: "GRPC" });
    const error = await failure(
      (async () => {
        for await (const _ of client.sendStreamingMessage("go")) server?.dropConnections();
      })(),
    );
    dropped();
    expect(error).toBeInstanceOf(NovaOSConnectionError);
  });

  it("a stream that completes before a last frame is a NovaOSConnectionError", async () => {
    server = await startGrpcServer({
      async *sendStreamingMessage() {
        yield frame({ case: "task", value: task() });
      },
    });
    await using client = new Client({ transports: [grpcTransport()], baseUrl: server.url, binding: "GRPC" });
    const error = await failure(
      (async () => {
        for await (const _ of client.sendStreamingMessage("go")) {
          // drain
        }
      })(),
    );
    expect(error).toBeInstanceOf(NovaOSConnectionError);
  });

  it("aborting the signal cancels the stream on the server", async () => {
    let serverSignal: AbortSignal | undefined;
    server = await startGrpcServer({
      async *sendStreamingMessage(_request, context) {
        serverSignal = context.signal;
        yield frame({ case: "task", value: task() });
        await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
      },
    });
    await using client = new Client({ transports: [grpcTransport()], baseUrl: server.url, binding: "GRPC" });
    const controller = new AbortController();
    const reason = new Error("stop");
    const error = await failure(
      (async () => {
        for await (const _ of client.sendStreamingMessage("go", { signal: controller.signal }))
          controller.abort(reason);
      })(),
    );
    expect(error).toBe(reason);
    const signal = serverSignal as AbortSignal;
    if (!signal.aborted) await new Promise((resolve) => signal.addEventListener("abort", resolve));
    expect(signal.aborted).toBe(true);
  });
});
