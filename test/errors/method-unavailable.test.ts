/**
 * The reference's rule for "the agent does not offer this method": detect by
 * code (-32004 or -32601), whichever branch of the hierarchy the error is in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TaskState } from "../../gen/a2a_pb.js";
import { MethodNotFoundError, UnsupportedOperationError } from "../../src/a2a/errors.js";
import { Client } from "../../src/client/client.js";
import {
  errorFromJsonRpc,
  isMethodUnavailable,
  JSONRPC_CODE_DETAIL_KEY,
  METHOD_UNAVAILABLE_ERROR_CODES,
  NovaOSValidationError,
} from "../../src/errors/index.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { type RunningServer, serveAgent } from "../server/support/agent-server.js";

describe("METHOD_UNAVAILABLE_ERROR_CODES", () => {
  it("is -32004 and -32601", () => {
    expect([...METHOD_UNAVAILABLE_ERROR_CODES].sort((a, b) => a - b)).toEqual([-32601, -32004]);
  });

  it("recognises both codes across the two branches, and nothing else", () => {
    const unsupported = errorFromJsonRpc({ code: -32004, message: "no" });
    const notFound = errorFromJsonRpc({ code: -32601, message: "Method not found" });
    expect(unsupported).toBeInstanceOf(UnsupportedOperationError);
    expect(notFound).toBeInstanceOf(MethodNotFoundError);
    expect(notFound).toBeInstanceOf(NovaOSValidationError);
    expect([isMethodUnavailable(unsupported), isMethodUnavailable(notFound)]).toEqual([true, true]);
    const platform = new NovaOSValidationError("m", { details: { [JSONRPC_CODE_DETAIL_KEY]: -32601 } });
    expect(isMethodUnavailable(platform)).toBe(true);
    expect(isMethodUnavailable(errorFromJsonRpc({ code: -32001, message: "Task not found" }))).toBe(false);
    expect(isMethodUnavailable(new Error("x"))).toBe(false);
    expect(isMethodUnavailable(undefined)).toBe(false);
  });
});

describe("falling back when streaming is unavailable", () => {
  let running: RunningServer;
  beforeAll(async () => {
    const agent = new AgentBuilder({ name: "no-stream", streaming: false, logger: createLogger({ level: "silent" }) });
    agent.skill("echo", (_ctx, text) => ({ output: `echo: ${text}` }));
    running = await serveAgent(agent);
  });
  afterAll(async () => {
    await running.close();
  });

  it("detects the agent's -32004 on SendStreamingMessage and falls back to SendMessage", async () => {
    await using client = new Client({ baseUrl: running.url }); // no card: the client tries to stream
    const error = await (async () => {
      for await (const _frame of client.sendStreamingMessage("hi")) return undefined;
    })().catch((e: unknown) => e);
    expect(isMethodUnavailable(error)).toBe(true);
    expect(await client.sendMessage("hi")).toMatchObject({ status: { state: TaskState.COMPLETED } });
  });
});
