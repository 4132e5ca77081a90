/**
 * SendMessage echo over JSON-RPC: a completed task with the input as its
 * artifact and status message, ours vs @a2a-js/sdk (Express, in-memory
 * store) vs a raw node:http JSON echo. Throughput and server CPU per call at
 * 32 connections; latency p50 and p99 at 1, 32 and 256 connections.
 */
import { ECHO_MESSAGE, type EchoTarget, type EchoTargets, echoScenario } from "../support/echo-targets.js";
import { httpLoad } from "../support/load.js";

const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: ECHO_MESSAGE } });
const headers = { "A2A-Version": "1.0" };

// biome-ignore lint/suspicious/noExplicitAny: answers are checked loosely.
const completedTask = (answer: any) => answer?.result?.task?.status?.state === "TASK_STATE_COMPLETED";

const target = (server: string, verify: (answer: unknown) => boolean): EchoTarget => ({
  server,
  load: (running, window) => httpLoad({ url: running.url, body, headers, verify, ...window }),
});

export const jsonRpcEchoTargets: EchoTargets = {
  ours: target("ours", completedTask),
  peer: target("a2a-js", completedTask),
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked loosely.
  ceiling: target("raw", (answer: any) => answer?.result?.echo !== undefined),
};

export const jsonRpcEcho = echoScenario("JSON-RPC SendMessage echo", jsonRpcEchoTargets, {
  connections: 32,
  name: "SendMessage echo (32 connections)",
  unit: "req/s",
  targets: { vsPeer: 5, vsCeiling: 0.5 },
  latencyAt: [1, 32, 256],
});
