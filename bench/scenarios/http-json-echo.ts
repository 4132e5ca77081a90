/**
 * SendMessage echo over HTTP+JSON (`POST /message:send`) at 32 connections:
 * ours (the AgentBuilder's node handler) vs @a2a-js/sdk's Express
 * `restHandler` on the same agent behaviour vs the raw node:http JSON echo.
 */
import { ECHO_MESSAGE, type EchoTarget, type EchoTargets, echoScenario } from "../support/echo-targets.js";
import { httpLoad } from "../support/load.js";

const body = JSON.stringify({ message: ECHO_MESSAGE });
const headers = { "A2A-Version": "1.0" };

// biome-ignore lint/suspicious/noExplicitAny: answers are checked loosely.
const completedTask = (answer: any) => answer?.task?.status?.state === "TASK_STATE_COMPLETED";

const target = (server: string, verify: (answer: unknown) => boolean): EchoTarget => ({
  server,
  load: (running, window) => httpLoad({ url: `${running.url}message:send`, body, headers, verify, ...window }),
});

export const httpJsonEchoTargets: EchoTargets = {
  ours: target("ours", completedTask),
  peer: target("a2a-js-rest", completedTask),
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked loosely.
  ceiling: target("raw", (answer: any) => answer?.result?.echo?.message !== undefined),
};

export const httpJsonEcho = echoScenario("HTTP+JSON SendMessage echo", httpJsonEchoTargets, {
  connections: 32,
  name: "SendMessage echo (32 connections)",
  unit: "req/s",
  targets: { vsPeer: 5, vsCeiling: 0.5 },
});
