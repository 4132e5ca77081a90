/**
 * SendMessage echo over JSON-RPC at 32 connections: a completed task with the
 * input as its artifact and status message, ours vs @a2a-js/sdk (Express,
 * in-memory store) vs a raw node:http JSON echo.
 */
import type { BenchScenario } from "../scenario.js";
import { startServer } from "../support/child-server.js";
import { requestsPerSecond } from "../support/load.js";

const body = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "SendMessage",
  params: {
    message: {
      messageId: "m-1",
      role: "ROLE_USER",
      parts: [{ text: "Hello, bench! This is the echo payload." }],
      metadata: { skillId: "echo" },
    },
  },
});
const headers = { "A2A-Version": "1.0" };

// biome-ignore lint/suspicious/noExplicitAny: answers are checked loosely.
const completedTask = (answer: any) => answer?.result?.task?.status?.state === "TASK_STATE_COMPLETED";

async function measure(server: string, verify: (answer: unknown) => boolean): Promise<number> {
  const running = await startServer(server);
  try {
    return await requestsPerSecond({ url: running.url, body, headers, verify });
  } finally {
    await running.stop();
  }
}

export const jsonRpcEcho: BenchScenario = {
  name: "JSON-RPC SendMessage echo",
  async run() {
    const ours = await measure("ours", completedTask);
    const peer = await measure("a2a-js", completedTask);
    // biome-ignore lint/suspicious/noExplicitAny: answers are checked loosely.
    const ceiling = await measure("raw", (answer: any) => answer?.result?.echo !== undefined);
    return [
      {
        name: "SendMessage echo (32 connections)",
        unit: "req/s",
        ours,
        peer,
        ceiling,
        targets: { vsPeer: 5, vsCeiling: 0.5 },
      },
    ];
  },
};
