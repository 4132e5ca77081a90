/** Interceptors around real calls: order, mutation, short-circuit, once per frame, failures. */
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { StreamResponseSchema, TaskSchema } from "../../gen/a2a_pb.js";
import { TaskNotFoundError } from "../../src/a2a/errors.js";
import { Client } from "../../src/client/client.js";
import type { AfterArgs, BeforeArgs, ClientCallInterceptor } from "../../src/client/interceptors.js";
import {
  type RecordedRequest,
  sendJson,
  sseEvent,
  startHttpServer,
  startSse,
  type TestHttpServer,
} from "./support/http-server.js";

let server: TestHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const rpc = (req: RecordedRequest, value: unknown) => ({ jsonrpc: "2.0", id: JSON.parse(req.body).id, result: value });
const task = (state: string) => ({ id: "t1", contextId: "c1", status: { state } });

function recorder(name: string, log: string[]): ClientCallInterceptor {
  return {
    before: (args) => {
      log.push(`${name}.before:${args.method}`);
    },
    after: (args) => {
      log.push(`${name}.after:${args.error ? "error" : (args.result as { $typeName: string }).$typeName}`);
    },
  };
}

describe("interceptors", () => {
  it("run before in list order and after in reverse, around the transport", async () => {
    const log: string[] = [];
    server = await startHttpServer((req, res) => {
      log.push("transport");
      sendJson(res, 200, rpc(req, task("TASK_STATE_COMPLETED")));
    });
    await using client = new Client({ baseUrl: server.url, interceptors: [recorder("a", log), recorder("b", log)] });
    await client.getTask("t1");
    expect(log).toEqual([
      "a.before:GetTask",
      "b.before:GetTask",
      "transport",
      "b.after:lf.a2a.v1.Task",
      "a.after:lf.a2a.v1.Task",
    ]);
  });

  it("before may change the headers and the request message; it sees the call's context", async () => {
    server = await startHttpServer((req, res) => sendJson(res, 200, rpc(req, task("TASK_STATE_COMPLETED"))));
    const changer: ClientCallInterceptor = {
      before(args: BeforeArgs) {
        args.headers.set("x-request-id", String(args.context.state.requestId));
        if (args.method === "GetTask") args.request.historyLength = 7;
      },
    };
    await using client = new Client({ baseUrl: server.url, interceptors: [changer] });
    await client.getTask("t1", { context: { state: { requestId: "r-42" } } });
    const req = server.requests[0] as RecordedRequest;
    expect(req.headers["x-request-id"]).toBe("r-42");
    expect(JSON.parse(req.body).params.historyLength).toBe(7);
  });

  it("respondWith short-circuits: later befores and the transport are skipped", async () => {
    const log: string[] = [];
    server = await startHttpServer(() => expect.fail("the agent must not be called"));
    const cache: ClientCallInterceptor = {
      before(args) {
        log.push("cache.before");
        if (args.method === "GetTask") args.respondWith(create(TaskSchema, { id: "cached" }));
      },
      after() {
        log.push("cache.after");
      },
    };
    await using client = new Client({
      baseUrl: server.url,
      interceptors: [recorder("a", log), cache, recorder("c", log)],
    });
    const got = await client.getTask("t1");
    expect(got.id).toBe("cached");
    expect(log).toEqual(["a.before:GetTask", "cache.before", "cache.after", "a.after:lf.a2a.v1.Task"]);
    expect(server.requests).toHaveLength(0);
  });

  it("a stream can be answered by its one frame", async () => {
    server = await startHttpServer(() => expect.fail("the agent must not be called"));
    const answer = create(StreamResponseSchema, {
      payload: { case: "task", value: create(TaskSchema, { id: "x", status: { state: 3 } }) },
    });
    await using client = new Client({
      baseUrl: server.url,
      interceptors: [
        {
          before: (args) => {
            if (args.method === "SendStreamingMessage") args.respondWith(answer);
          },
        },
      ],
    });
    const frames = [];
    for await (const frame of client.sendStreamingMessage("go")) frames.push(frame);
    expect(frames).toEqual([answer]);
  });

  it("after runs once per stream frame, then once more when the stream fails", async () => {
    server = await startHttpServer((req, res) => {
      startSse(res);
      sseEvent(res, rpc(req, { task: task("TASK_STATE_WORKING") }));
      sseEvent(
        res,
        rpc(req, { statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } } }),
      );
      sseEvent(res, { jsonrpc: "2.0", id: JSON.parse(req.body).id, error: { code: -32001, message: "gone" } });
      res.end();
    });
    const afters: AfterArgs[] = [];
    await using client = new Client({
      baseUrl: server.url,
      interceptors: [{ after: (args) => void afters.push(args) }],
    });
    await expect(
      (async () => {
        for await (const _ of client.sendStreamingMessage("go")) {
          // drain
        }
      })(),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    expect(afters.map((a) => (a.error ? "error" : (a.result as { payload: { case: string } }).payload.case))).toEqual([
      "task",
      "statusUpdate",
      "error",
    ]);
    expect(afters[2]?.error).toBeInstanceOf(TaskNotFoundError);
  });

  it("a before that throws fails the call with no I/O; afters of the hooks that ran see the error", async () => {
    const log: string[] = [];
    server = await startHttpServer(() => expect.fail("the agent must not be called"));
    const boom = new Error("refused by policy");
    await using client = new Client({
      baseUrl: server.url,
      interceptors: [
        recorder("a", log),
        {
          before: () => {
            throw boom;
          },
        },
        recorder("c", log),
      ],
    });
    await expect(client.getTask("t1")).rejects.toBe(boom);
    expect(log).toEqual(["a.before:GetTask", "a.after:error"]);
    expect(server.requests).toHaveLength(0);
  });

  it("after sees the mapped error of a failed call, and an after that throws fails the call", async () => {
    server = await startHttpServer((req, res) =>
      sendJson(res, 200, { jsonrpc: "2.0", id: JSON.parse(req.body).id, error: { code: -32001, message: "x" } }),
    );
    let seen: unknown;
    const veto = new Error("after veto");
    await using client = new Client({
      baseUrl: server.url,
      interceptors: [
        {
          after: (args) => {
            seen = args.error;
          },
        },
      ],
    });
    await expect(client.getTask("t1")).rejects.toBeInstanceOf(TaskNotFoundError);
    expect(seen).toBeInstanceOf(TaskNotFoundError);
    await using vetoing = new Client({
      baseUrl: server.url,
      interceptors: [
        {
          after: () => {
            throw veto;
          },
        },
      ],
    });
    await expect(vetoing.getTask("t1")).rejects.toBe(veto);
  });

  it("the client's interceptor list is a copy", async () => {
    const client = new Client({ baseUrl: "http://127.0.0.1:1", interceptors: [{}] });
    client.interceptors.push({});
    expect(client.interceptors).toHaveLength(1);
    await client.close();
  });
});
