/**
 * Pauses (docs/building-agents.md "Reporting progress and pausing",
 * docs/client.md "Human in the loop"): a skill that asks a person to confirm
 * a plan (HITL), to connect an account (OAuth), and to approve a write, each
 * a NovaOS pause message; the client reads each pause and resumes the same
 * task. Run it: `npx tsx pauses.ts`.
 */
import {
  Client,
  createHitlMessage,
  createOauthRequiredMessage,
  createWriteConfirmationRequiredMessage,
  extractOAuthRequired,
  extractWriteConfirmationRequired,
  HitlType,
  isTask,
  pendingInputRequests,
  Role,
  type Task,
  TaskState,
  taskText,
} from "@novaos/client-sdk";
import { listen } from "@novaos/client-sdk/node";
import { AgentBuilder, createLogger } from "@novaos/client-sdk/server";

const agent = new AgentBuilder({ name: "booker", logger: createLogger({ level: "warn" }) });
agent.skill("book", async (ctx, text) => {
  // Each turn of the conversation is in the task's history: one pause per turn until all three are answered.
  const turn = ctx.task.history.filter((m) => m.role === Role.USER).length;
  if (turn === 1) {
    await ctx.taskUpdater.requiresInput(createHitlMessage(`Book ${text}?`, HitlType.PLAN_CONFIRMATION));
    return { status: "WAITING_USER" };
  }
  if (turn === 2) {
    const connect = "Connect your calendar so I can block the dates.";
    await ctx.taskUpdater.requiresAuth(
      createOauthRequiredMessage(connect, "calendar", "https://auth.example/calendar"),
    );
    return { status: "AUTH_REQUIRED" };
  }
  if (turn === 3) {
    const approve = "Charge the booking to the company card?";
    await ctx.taskUpdater.requiresInput(createWriteConfirmationRequiredMessage(approve, "call-1", "payments.charge"));
    return { status: "WAITING_USER" };
  }
  return { output: `Booked, paid and in your calendar (last answer: ${text}).` };
});

await using server = await listen(agent, { port: 0 });
await using client = new Client({ baseUrl: server.url });

const asTask = (result: unknown): Task => {
  if (!isTask(result)) throw new Error("the agent answered with a message, not a task");
  return result;
};
const state = (task: Task) => TaskState[task.status?.state ?? TaskState.UNSPECIFIED];

let task = asTask(await client.sendMessage("a room in Lisbon", { skillId: "book" }));
const [question] = pendingInputRequests(task);
console.log(`${state(task)}: ${question?.content}`);
task = asTask(
  await client.sendHitlResponse("confirm", question?.sessionId ?? "", { taskId: task.id, inputValue: "yes" }),
);

const oauth = extractOAuthRequired(task.status?.message);
console.log(`${state(task)}: connect ${oauth?.payload.connector} at ${oauth?.payload.authUrl}`);
task = asTask(await client.sendMessage("connected", { taskId: task.id, contextId: task.contextId }));

const write = extractWriteConfirmationRequired(task.status?.message);
console.log(`${state(task)}: approve ${write?.payload.toolName} (${write?.payload.callId})`);
task = asTask(await client.sendMessage("approved", { taskId: task.id, contextId: task.contextId }));

console.log(`${state(task)}: ${taskText(task)}`);
