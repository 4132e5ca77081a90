/**
 * The request skeleton is one for every binding: a handler failure that is
 * not an A2A error is logged once, with the binding it came in on, and the
 * caller sees a bare internal error; an A2A error is an answer and is not
 * logged. The same on JSON-RPC, HTTP+JSON, gRPC through connect-node and the
 * gRPC unary fast path, for unary calls and for a stream that fails after
 * its first frame.
 */
import { Writable } from "node:stream";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type StreamResponse, StreamResponseSchema, TaskState } from "../../gen/a2a_pb.js";
import { TaskNotFoundError } from "../../src/a2a/errors.js";
import { readSseEvents } from "../../src/a2a/sse.js";
import { createLogger } from "../../src/runtime/logger.js";
import { FrameChannel, HandlerDouble } from "./support/handler-double.js";
import { type ServedBindings, serveBindings } from "./support/serve-bindings.js";

interface LogLine {
  readonly level: string;
  readonly message: string;
  readonly binding?: string;
  readonly err?: { message: string };
}

const lines: LogLine[] = [];
const logger = createLogger({
  level: "error",
  destination: new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  }),
});

const double = new HandlerDouble();
let served: ServedBindings;

beforeAll(async () => {
  served = await serveBindings(double.handler, { logger });
});
afterAll(() => served[Symbol.asyncDispose]());
beforeEach(() => {
  lines.length = 0;
});

const grpc = () => served.grpc();

async function grpcCode(call: Promise<unknown>): Promise<Code> {
  try {
    await call;
  } catch (error) {
    return ConnectError.from(error).code;
  }
  throw new Error("the call succeeded");
}

/** GetTask of `t-1` on each binding; what the caller saw. */
const unaryCalls: Record<string, () => Promise<unknown>> = {
  JSONRPC: async () => {
    const response = await fetch(served.httpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "t-1" } }),
    });
    return (await response.json()).error.code;
  },
  "HTTP+JSON": async () => (await fetch(`${served.httpUrl}/tasks/t-1`, { headers: { "a2a-version": "1.0" } })).status,
  // Without a deadline the unary fast path answers; with one, connect-node does.
  GRPC: () => grpcCode(grpc().getTask({ id: "t-1" })),
  "GRPC via connect-node": () => grpcCode(grpc().getTask({ id: "t-1" }, { timeoutMs: 30_000 })),
};

const INTERNAL: Record<string, unknown> = {
  JSONRPC: -32603,
  "HTTP+JSON": 500,
  GRPC: Code.Internal,
  "GRPC via connect-node": Code.Internal,
};
const NOT_FOUND: Record<string, unknown> = {
  JSONRPC: -32001,
  "HTTP+JSON": 404,
  GRPC: Code.NotFound,
  "GRPC via connect-node": Code.NotFound,
};

describe("one request skeleton under every binding", () => {
  it.each(Object.keys(unaryCalls))(
    "%s: logs a failure that is not an A2A error once, and answers INTERNAL",
    async (name) => {
      double.on("GetTask", () => Promise.reject(new Error("disk on fire")));
      expect(await unaryCalls[name]?.()).toBe(INTERNAL[name]);
      expect(lines).toEqual([
        expect.objectContaining({
          level: "error",
          message: "request failed",
          binding: name.split(" ")[0],
          err: expect.objectContaining({ message: "disk on fire" }),
        }),
      ]);
    },
  );

  it.each(Object.keys(unaryCalls))("%s: answers an A2A error without logging it", async (name) => {
    double.on("GetTask", () => Promise.reject(new TaskNotFoundError("no t-1")));
    expect(await unaryCalls[name]?.()).toBe(NOT_FOUND[name]);
    expect(lines).toEqual([]);
  });

  it("logs a stream that fails after its first frame by the same rule, on every binding", async () => {
    double.on("SubscribeToTask", () => {
      const channel = new FrameChannel<StreamResponse>();
      channel.push(
        create(StreamResponseSchema, {
          payload: {
            case: "statusUpdate",
            value: { taskId: "t-1", contextId: "c-1", status: { state: TaskState.WORKING } },
          },
        }),
      );
      channel.fail(new Error("stream on fire"));
      return channel;
    });
    const jsonRpc = await fetch(served.httpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SubscribeToTask", params: { id: "t-1" } }),
    });
    const restful = await fetch(`${served.httpUrl}/tasks/t-1:subscribe`, {
      method: "POST",
      headers: { "a2a-version": "1.0" },
    });
    for (const response of [jsonRpc, restful]) {
      const events = [];
      for await (const event of readSseEvents(response.body!)) events.push(event.event ?? "message");
      expect(events).toEqual(["message", "error"]);
    }
    const frames: StreamResponse[] = [];
    const code = await grpcCode(
      (async () => {
        for await (const frame of grpc().subscribeToTask({ id: "t-1" })) frames.push(frame);
      })(),
    );
    expect([frames.length, code]).toEqual([1, Code.Internal]);
    expect(lines.map((line) => [line.binding, line.err?.message])).toEqual([
      ["JSONRPC", "stream on fire"],
      ["HTTP+JSON", "stream on fire"],
      ["GRPC", "stream on fire"],
    ]);
  });
});
