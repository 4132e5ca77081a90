/**
 * The gRPC unary fast path: which calls take it, and that a call answered
 * there is indistinguishable on the wire from the same call answered by
 * connect-node (the `grpc-timeout` header sends a call to connect-node).
 */
import { getEventListeners, once } from "node:events";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { A2AService, GetTaskRequestSchema, SendMessageRequestSchema, TaskSchema } from "../../gen/a2a_pb.js";
import { StatusSchema } from "../../gen/google/rpc/status_pb.js";
import { TaskNotFoundError } from "../../src/a2a/errors.js";
import { createGrpcNodeHandler } from "../../src/server/grpc/grpc-server.js";
import { grpcUnaryMethods } from "../../src/server/grpc/grpc-service.js";
import { withUnaryFastPath } from "../../src/server/grpc/unary-fast-path.js";
import { HandlerDouble } from "./support/handler-double.js";

const GET_TASK = `/${A2AService.typeName}/GetTask`;
const SEND_MESSAGE = `/${A2AService.typeName}/SendMessage`;
const GRPC = { "content-type": "application/grpc", te: "trailers", "a2a-version": "1.0" };
/** A deadline: connect-node answers (the fast path takes no call with one). */
const VIA_CONNECT = { "grpc-timeout": "30S" };

interface RawAnswer {
  readonly headers: http2.IncomingHttpHeaders;
  /** The trailers, or the headers of a trailers-only answer. */
  readonly trailers: http2.IncomingHttpHeaders;
  readonly body: Buffer;
}

function envelope(message: Uint8Array, flags = 0): Buffer {
  const out = Buffer.alloc(5 + message.byteLength);
  out[0] = flags;
  out.writeUInt32BE(message.byteLength, 1);
  out.set(message, 5);
  return out;
}

const getTaskBody = (id: string) => envelope(toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema, { id })));

let double: HandlerDouble;
let shutdown: AbortController;
let h2: http2.Http2Server;
let session: http2.ClientHttp2Session;

beforeEach(async () => {
  double = new HandlerDouble();
  shutdown = new AbortController();
  h2 = http2.createServer(
    createGrpcNodeHandler(double.handler, { shutdownSignal: shutdown.signal, maxMessageBytes: 1024 }),
  );
  h2.listen(0, "127.0.0.1");
  await once(h2, "listening");
  session = http2.connect(`http://127.0.0.1:${(h2.address() as AddressInfo).port}`);
});

afterEach(async () => {
  session.destroy();
  await new Promise((resolve) => h2.close(resolve));
});

function call(path: string, body: Buffer, headers: http2.OutgoingHttpHeaders = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ":method": "POST", ":path": path, ...GRPC, ...headers });
    const chunks: Buffer[] = [];
    let head: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders | undefined;
    stream.on("response", (h) => {
      head = h;
    });
    stream.on("trailers", (t) => {
      trailers = t;
    });
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", reject);
    stream.on("close", () => resolve({ headers: head, trailers: trailers ?? head, body: Buffer.concat(chunks) }));
    stream.end(body);
  });
}

/** What a caller can observe of an answer, minus what legitimately differs (dates, connect's accept-encoding). */
function observable(answer: RawAnswer) {
  const details = answer.trailers["grpc-status-details-bin"] as string | undefined;
  return {
    status: answer.headers[":status"],
    contentType: answer.headers["content-type"],
    extensions: answer.headers["a2a-extensions"],
    grpcStatus: answer.trailers["grpc-status"],
    grpcMessage: answer.trailers["grpc-message"],
    details: details ? fromBinary(StatusSchema, Buffer.from(details, "base64")).details.map((d) => d.typeUrl) : [],
    body: answer.body.toString("hex"),
  };
}

async function bothPaths(path: string, body: Buffer, headers: http2.OutgoingHttpHeaders = {}) {
  const fast = await call(path, body, headers);
  const viaConnect = await call(path, body, { ...headers, ...VIA_CONNECT });
  return { fast: observable(fast), viaConnect: observable(viaConnect) };
}

describe("gRPC unary fast path: the same answers as connect-node", () => {
  it("answers a call with its message, status 0 and the response metadata the handler set", async () => {
    double.on("GetTask", (_request, context) => {
      context.responseHeaders.set("a2a-extensions", "https://ext.example/a");
      return create(TaskSchema, { id: "t-1", contextId: "c-1" });
    });
    const { fast, viaConnect } = await bothPaths(GET_TASK, getTaskBody("t-1"));
    expect(fast).toEqual(viaConnect);
    expect(fast.grpcStatus).toBe("0");
    expect(fast.extensions).toBe("https://ext.example/a");
    expect(fromBinary(TaskSchema, Buffer.from(fast.body, "hex").subarray(5)).id).toBe("t-1");
  });

  it("answers an A2A error with its status code, message and ErrorInfo detail", async () => {
    double.on("GetTask", () => Promise.reject(new TaskNotFoundError("no task t-9")));
    const { fast, viaConnect } = await bothPaths(GET_TASK, getTaskBody("t-9"));
    expect(fast).toEqual(viaConnect);
    expect(fast.grpcStatus).toBe("5");
    expect(fast.details).toContain("type.googleapis.com/google.rpc.ErrorInfo");
  });

  it("answers a request missing a REQUIRED field with INVALID_ARGUMENT and its BadRequest", async () => {
    const empty = envelope(toBinary(SendMessageRequestSchema, create(SendMessageRequestSchema)));
    const { fast, viaConnect } = await bothPaths(SEND_MESSAGE, empty);
    expect(fast).toEqual(viaConnect);
    expect(fast.grpcStatus).toBe("3");
    expect(fast.details).toContain("type.googleapis.com/google.rpc.BadRequest");
    expect(double.calls).toHaveLength(0);
  });

  const malformed: [string, Buffer, string][] = [
    ["an empty body", Buffer.alloc(0), "12"],
    ["a body shorter than an envelope header", Buffer.from([0, 0, 0]), "3"],
    ["an envelope promising more bytes than sent", Buffer.from([0, 0, 0, 0, 9, 1, 2]), "3"],
    ["a compressed envelope without grpc-encoding", envelope(Buffer.from([0x0a, 0x01, 0x74]), 1), "13"],
    ["two messages", Buffer.concat([getTaskBody("a"), getTaskBody("b")]), "12"],
    ["bytes that are not the request message", envelope(Buffer.from([0x0a, 0xff, 0xff])), "13"],
    ["a message over maxMessageBytes", envelope(Buffer.alloc(2048, 0x41)), "8"],
  ];
  it.each(malformed)(
    "refuses %s with the status connect gives, never reaching the handler",
    async (_name, body, code) => {
      const { fast, viaConnect } = await bothPaths(GET_TASK, body);
      expect(fast.grpcStatus).toBe(code);
      expect(viaConnect.grpcStatus).toBe(code);
      expect(fast.status).toBe(200);
      expect(double.calls).toHaveLength(0);
    },
  );
});

describe("gRPC unary fast path: which calls take it", () => {
  const routed = () => {
    const viaConnect: string[] = [];
    const handler = withUnaryFastPath(
      grpcUnaryMethods(double.handler),
      (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
        viaConnect.push(req.url);
        res.writeHead(204).end();
      },
      { maxMessageBytes: 1024 },
    );
    h2.removeAllListeners("request");
    h2.on("request", handler);
    return viaConnect;
  };

  it("takes a plain unary gRPC call, with or without +proto and identity encoding", async () => {
    const viaConnect = routed();
    double.on("GetTask", () => create(TaskSchema, { id: "t-1" }));
    for (const headers of [{}, { "content-type": "application/grpc+proto" }, { "grpc-encoding": "identity" }]) {
      expect((await call(GET_TASK, getTaskBody("t-1"), headers)).trailers["grpc-status"]).toBe("0");
    }
    expect(viaConnect).toEqual([]);
    expect(double.calls).toHaveLength(3);
  });

  it("leaves deadlines, compression, other protocols, streaming and unknown paths to connect-node", async () => {
    const viaConnect = routed();
    await call(GET_TASK, getTaskBody("t-1"), VIA_CONNECT);
    await call(GET_TASK, envelope(gzipSync(toBinary(GetTaskRequestSchema, create(GetTaskRequestSchema))), 1), {
      "grpc-encoding": "gzip",
    });
    await call(GET_TASK, Buffer.from("{}"), { "content-type": "application/json" });
    await call(GET_TASK, getTaskBody("t-1"), { "content-type": "application/grpc-web+proto" });
    await call(GET_TASK, getTaskBody("t-1"), { "content-type": "application/grpc+json" });
    await call(`/${A2AService.typeName}/SendStreamingMessage`, getTaskBody("t-1"));
    await call(`/${A2AService.typeName}/NoSuchMethod`, getTaskBody("t-1"));
    expect(viaConnect).toHaveLength(7);
    expect(double.calls).toHaveLength(0);
  });
});

describe("gRPC unary fast path: the call's signal", () => {
  it("aborts when the caller cancels the call, and nothing stays attached", async () => {
    const detached = new Promise<void>((resolve) =>
      double.on("GetTask", (_request, context) => {
        context.signal.addEventListener("abort", () => resolve(), { once: true });
        return new Promise(() => undefined);
      }),
    );
    const stream = session.request({ ":method": "POST", ":path": GET_TASK, ...GRPC });
    stream.end(getTaskBody("t-1"));
    await double.nextCall();
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(1);
    stream.close(http2.constants.NGHTTP2_CANCEL);
    await detached;
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
  });

  it("aborts on server shutdown", async () => {
    let signal: AbortSignal | undefined;
    const seen = new Promise<void>((resolve) =>
      double.on("GetTask", (_request, context) => {
        signal = context.signal;
        resolve();
        return new Promise(() => undefined);
      }),
    );
    const stream = session.request({ ":method": "POST", ":path": GET_TASK, ...GRPC });
    stream.on("error", () => undefined);
    stream.end(getTaskBody("t-1"));
    await seen;
    shutdown.abort(new Error("shutting down"));
    expect(signal?.aborted).toBe(true);
    stream.close(http2.constants.NGHTTP2_CANCEL);
  });

  it("stays quiet after the answer: the stream closing then is the call ending", async () => {
    let signal: AbortSignal | undefined;
    double.on("GetTask", (_request, context) => {
      signal = context.signal;
      return create(TaskSchema, { id: "t-1" });
    });
    const answer = await call(GET_TASK, getTaskBody("t-1"));
    expect(answer.trailers["grpc-status"]).toBe("0");
    expect(signal?.aborted).toBe(false);
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
  });
});
