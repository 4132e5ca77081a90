/**
 * SendMessage echo over HTTP+JSON (`POST /message:send`) at 32 connections:
 * ours (the AgentBuilder's node handler) vs @a2a-js/sdk's Express
 * `restHandler` on the same agent behaviour vs the raw node:http JSON echo.
 */
import type { BenchScenario } from "../scenario.js";
import { startServer } from "../support/child-server.js";
import { requestsPerSecond } from "../support/load.js";

const body = JSON.stringify({
  message: {
    messageId: "m-1",
    role: "ROLE_USER",
    parts: [{ text: "Hello, bench! This is the echo payload." }],
    metadata: { skillId: "echo" },
  },
});
const headers = { "A2A-Version": "1.0" };

// biome-ignore lint/suspicious/noExplicitAny: answers are checked loosely.
const completedTask = (answer: any) => answer?.task?.status?.state === "TASK_STATE_COMPLETED";

async function measure(server: string, verify: (answer: unknown) => boolean): Promise<number> {
  const running = await startServer(server);
  try {
    return await requestsPerSecond({ url: `${running.url}message:send`, body, headers, verify });
  } finally {
    await running.stop();
  }
}

export const httpJsonEcho: BenchScenario = {
  name: "HTTP+JSON SendMessage echo",
  async run() {
    const ours = await measure("ours", completedTask);
    const peer = await measure("a2a-js-rest", completedTask);
    // biome-ignore lint/suspicious/noExplicitAny: answers are checked loosely.
    const ceiling = await measure("raw", (answer: any) => answer?.result !== undefined);
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
