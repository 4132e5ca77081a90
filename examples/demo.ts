/**
 * The main job (`make demo`): start the example agent on localhost, drive it
 * with the SDK's own client through every A2A method, print what happened,
 * and exit 0 (non-zero if anything did not go as the protocol says).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  AgentCardSchema,
  type Artifact,
  artifactText,
  Client,
  decodeMessage,
  extractAll,
  type Message,
  messageText,
  type StreamResponse,
  type Task,
  TaskNotFoundError,
  TaskState,
  VersionNotSupportedError,
} from "@novaos/client-sdk";
import { nodeHandler } from "@novaos/client-sdk/node";
import { createLogger } from "@novaos/client-sdk/server";
import { createExampleAgent } from "./example-agent.js";

const state = (task: Pick<Task, "status">) => TaskState[task.status?.state ?? TaskState.UNSPECIFIED];
const text = (carrier: Message | Artifact | undefined) =>
  carrier === undefined ? "" : carrier.$typeName === "lf.a2a.v1.Message" ? messageText(carrier) : artifactText(carrier);
const say = (line: string) => process.stdout.write(`${line}\n`);
let failures = 0;
function check(ok: boolean, what: string): void {
  if (!ok) failures++;
  say(`   ${ok ? "✓" : "✗"} ${what}`);
}

const agent = createExampleAgent({ logger: createLogger({ level: "warn" }) });
const server = http.createServer(nodeHandler(agent));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const client = new Client({ baseUrl });

try {
  say(`Example agent serving A2A JSON-RPC at ${baseUrl}`);
  const card = decodeMessage(AgentCardSchema, await (await fetch(`${baseUrl}.well-known/agent-card.json`)).json());
  say(`\n① Agent card: ${card.name} ${card.version} — skills: ${card.skills.map((s) => s.id).join(", ")}`);
  check(
    card.capabilities?.streaming === true && card.capabilities.pushNotifications === true,
    "streaming and push configs declared",
  );

  say("\n② SendMessage → echo");
  const echoed = (await client.sendMessage("Hello, agent!", { skillId: "echo" })) as Task;
  say(`   ${state(echoed)}: ${text(echoed.status?.message)}`);
  check(
    echoed.status?.state === TaskState.COMPLETED && text(echoed.artifacts[0]) === text(echoed.status?.message),
    "completed, the answer in the status message and in an artifact",
  );

  say("\n③ SendStreamingMessage → storyteller (frames as they arrive)");
  let chunks = 0;
  let last: StreamResponse | undefined;
  for await (const frame of client.sendStreamingMessage("a lighthouse keeper", { skillId: "storyteller" })) {
    last = frame;
    const p = frame.payload;
    if (p.case === "task") say(`   task ${p.value.id.slice(0, 8)}… ${state(p.value)}`);
    if (p.case === "statusUpdate") {
      const note = text(p.value.status?.message);
      say(`   status ${TaskState[p.value.status?.state ?? 0]}${note ? ` — ${note}` : ""}`);
    }
    if (p.case === "artifactUpdate" && p.value.artifact?.artifactId === "story") {
      chunks++;
      say(`   + ${text(p.value.artifact)}`);
    }
  }
  check(
    chunks === 6 && last?.payload.case === "statusUpdate" && last.payload.value.status?.state === TaskState.COMPLETED,
    "six chunks, then COMPLETED",
  );
  const storyTaskId = last?.payload.case === "statusUpdate" ? last.payload.value.taskId : "";

  say("\n④ HITL → approval pauses on INPUT_REQUIRED, resumes on the same task");
  const paused = (await client.sendMessage("a train to Lisbon on Friday", { skillId: "approval" })) as Task;
  const hitl = extractAll(paused.status?.message).hitl;
  say(`   ${state(paused)}: ${text(paused.status?.message)} (NovaOS HITL payload: ${hitl?.hitlType ?? "none"})`);
  check(
    paused.status?.state === TaskState.INPUT_REQUIRED && hitl !== undefined,
    "paused with a plan-confirmation payload",
  );
  const resumed = (await client.sendMessage("yes", { skillId: "approval", taskId: paused.id })) as Task;
  say(`   ${state(resumed)}: ${text(resumed.status?.message)}`);
  check(resumed.id === paused.id && resumed.status?.state === TaskState.COMPLETED, "same task, now COMPLETED");

  say("\n⑤ GetTask (historyLength 2) and ListTasks");
  const fetched = await client.getTask(paused.id, { historyLength: 2 });
  say(
    `   ${fetched.id.slice(0, 8)}… ${state(fetched)}, last turns: ${fetched.history.map((m) => JSON.stringify(text(m))).join(" → ")}`,
  );
  check(fetched.history.length === 2, "history trimmed to the last two messages");
  const listed = await client.listTasks({ pageSize: 2 });
  say(
    `   ${listed.totalSize} tasks; first page: ${listed.tasks.map((t) => state(t)).join(", ")}; more: ${listed.nextPageToken !== ""}`,
  );
  check(listed.totalSize === 3 && listed.tasks.length === 2 && listed.nextPageToken !== "", "paged, most recent first");

  say("\n⑥ SubscribeToTask + CancelTask on a story still being told");
  const running = (await client.sendMessage("a very slow snail", {
    skillId: "storyteller",
    returnImmediately: true,
  })) as Task;
  say(`   started ${running.id.slice(0, 8)}… (${state(running)})`);
  const seen: string[] = [];
  for await (const frame of client.subscribeToTask(running.id)) {
    const p = frame.payload;
    if (p.case === "task") seen.push(`snapshot ${state(p.value)}`);
    if (p.case === "artifactUpdate") {
      seen.push("chunk");
      if (seen.filter((s) => s === "chunk").length === 1) {
        const canceled = await client.cancelTask(running.id);
        say(`   CancelTask → ${state(canceled)}`);
      }
    }
    if (p.case === "statusUpdate") seen.push(TaskState[p.value.status?.state ?? 0] ?? "UNKNOWN");
  }
  say(`   subscriber saw: ${seen.join(", ")}`);
  check(seen.at(-1) === "CANCELED", "the stream ended on CANCELED");
  check(state(await client.getTask(running.id)) === "CANCELED", "and CANCELED stays");

  say("\n⑦ Push-notification configs");
  const config = await client.createTaskPushNotificationConfig({
    taskId: echoed.id,
    url: "https://hooks.example.com/a2a",
  });
  say(`   created ${config.id.slice(0, 8)}… → ${config.url}`);
  const configs = await client.listTaskPushNotificationConfigs(echoed.id);
  await client.deleteTaskPushNotificationConfig(echoed.id, config.id);
  const after = await client.listTaskPushNotificationConfigs(echoed.id);
  check(configs.configs.length === 1 && after.configs.length === 0, "create, list and delete round-trip");

  say("\n⑧ Errors are typed");
  const missing = await client.getTask("no-such-task").catch((e: unknown) => e);
  say(`   GetTask(no-such-task) → ${(missing as Error).name}: ${(missing as Error).message}`);
  check(missing instanceof TaskNotFoundError, "TaskNotFoundError (-32001)");
  const noVersion = await fetch(baseUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: storyTaskId } }),
  });
  const { error: versionError } = (await noVersion.json()) as { error: { code: number; message: string } };
  say(`   a request without A2A-Version → ${versionError.code} ${versionError.message}`);
  check(versionError.code === new VersionNotSupportedError().code, "VersionNotSupportedError (-32009)");
} finally {
  await client.close();
  await agent.requestHandler().whenIdle();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

say(failures === 0 ? "\nAll A2A methods behaved as specified." : `\n${failures} check(s) failed.`);
process.exit(failures === 0 ? 0 : 1);
