/**
 * A connect-es user calling an agent with the generated `A2AService`, no
 * `Client`: `a2aVersionInterceptor` makes the calls A2A 1.0 calls, and
 * `toA2AError` turns a ConnectError into the typed class the other bindings
 * give — over a real gRPC connection to `listen(agent, { grpcPort })`.
 */
import { ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  A2AService,
  a2aVersionInterceptor,
  InvalidParamsError,
  NovaOSError,
  TaskNotFoundError,
  TaskState,
  toA2AError,
  VersionNotSupportedError,
} from "../../src/index.js";
import { type AgentServer, listen } from "../../src/node/index.js";
import { AgentBuilder, createLogger } from "../../src/server/index.js";

let server: AgentServer;

beforeAll(async () => {
  const agent = new AgentBuilder({ name: "connect-es", logger: createLogger({ level: "silent" }) });
  agent.skill("echo", (_ctx, text) => ({ output: `echo: ${text}` }));
  server = await listen(agent, { port: 0, grpcPort: 0 });
});
afterAll(() => server.close());

const clientFor = (interceptors: Parameters<typeof createGrpcTransport>[0]["interceptors"] = []) =>
  createClient(
    A2AService,
    createGrpcTransport({ baseUrl: `http://${server.grpcTarget}`, interceptors: interceptors ?? [] }),
  );

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => expect.fail("the call succeeded"),
    (error: unknown) => error,
  );
}

describe("connect-es over the generated A2AService", () => {
  it("a2aVersionInterceptor makes a call an A2A 1.0 call; without it the agent refuses the call", async () => {
    const reply = await clientFor([a2aVersionInterceptor]).sendMessage({
      message: { messageId: "m-1", role: 1, parts: [{ content: { case: "text", value: "hi" } }], metadata: {} },
    });
    expect(reply.payload.case === "task" && reply.payload.value.status?.state).toBe(TaskState.COMPLETED);
    const refused = await failure(clientFor().getTask({ id: "t-1" }));
    expect(refused).toBeInstanceOf(ConnectError);
    expect(toA2AError(refused)).toBeInstanceOf(VersionNotSupportedError);
  });

  it("toA2AError turns a ConnectError into the class its ErrorInfo names", async () => {
    const error = toA2AError(await failure(clientFor([a2aVersionInterceptor]).getTask({ id: "no-such-task" })));
    expect(error).toBeInstanceOf(TaskNotFoundError);
    const invalid = toA2AError(await failure(clientFor([a2aVersionInterceptor]).getTask({ id: "" })));
    expect(invalid).toBeInstanceOf(InvalidParamsError);
  });

  it("toA2AError reads the other bindings' error forms, and keeps SDK errors as they are", () => {
    expect(toA2AError({ code: -32001, message: "Task not found" })).toBeInstanceOf(TaskNotFoundError);
    const body = {
      error: {
        code: 404,
        status: "NOT_FOUND",
        message: "no task",
        details: [
          { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org" },
        ],
      },
    };
    expect(toA2AError(body)).toBeInstanceOf(TaskNotFoundError);
    const own = new TaskNotFoundError("t-1");
    expect(toA2AError(own)).toBe(own);
    const other = toA2AError(new TypeError("fetch failed"));
    expect(other).toBeInstanceOf(NovaOSError);
    expect((other as NovaOSError).cause).toBeInstanceOf(TypeError);
  });
});
