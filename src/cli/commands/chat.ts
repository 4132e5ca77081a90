/**
 * `chat URL`: a conversation in the terminal. Every turn goes to the same
 * context; when the agent pauses a task for input or authorization
 * (INPUT_REQUIRED / AUTH_REQUIRED) the next line answers that task in place.
 * On a terminal the prompt is @clack/prompts; on a pipe, one line of stdin is
 * one turn. An empty line, `/exit`, end of input or Esc ends the chat.
 */
import { createInterface } from "node:readline";
import { isCancel, text } from "@clack/prompts";
import type { Command } from "commander";
import { type Client, isInterrupted, type Message, type StreamResponse, type Task, TaskState } from "../../index.js";
import { addConnectionOptions, type ConnectionOptions, withAgent } from "../connection.js";
import type { CliIo } from "../io.js";
import { createOutput, type Output } from "../output.js";
import { StreamView } from "../render/stream-view.js";
import { messageText } from "../render/task-text.js";
import { watchStream } from "./send.js";

interface Prompter {
  /** The next line, or undefined when the person is done. */
  ask(label: string): Promise<string | undefined>;
  close(): void;
}

function terminalPrompter(out: Output): Prompter {
  return {
    async ask(label) {
      const answer = await text({ message: label, input: out.io.stdin, output: out.io.stdout });
      return isCancel(answer) ? undefined : answer;
    },
    close() {},
  };
}

function linePrompter(out: Output): Prompter {
  const lines = createInterface({ input: out.io.stdin, terminal: false })[Symbol.asyncIterator]();
  return {
    async ask(label) {
      const next = await lines.next();
      if (next.done) return undefined;
      if (!out.json) out.line(`${label}> ${next.value}`);
      return next.value;
    },
    close() {
      void lines.return?.();
    },
  };
}

function promptLabel(paused: Task | undefined): string {
  if (!paused) return "you";
  const question = messageText(paused.status?.message);
  const what = paused.status?.state === TaskState.AUTH_REQUIRED ? "the agent needs authorization" : "the agent asks";
  return question ? `${what} — answer` : what;
}

/** A unary answer as a one-frame stream, for agents that do not stream. */
async function* single(result: Promise<Task | Message>): AsyncGenerator<StreamResponse> {
  const value = await result;
  yield {
    $typeName: "lf.a2a.v1.StreamResponse",
    payload: value.$typeName === "lf.a2a.v1.Task" ? { case: "task", value } : { case: "message", value },
  };
}

async function converse(client: Client, name: string, url: string, options: ChatOptions, out: Output): Promise<void> {
  const prompter = out.io.stdin.isTTY && out.live ? terminalPrompter(out) : linePrompter(out);
  const streaming = client.agentCard?.capabilities?.streaming === true;
  if (!out.json) out.line(out.colors.dim(`chat with ${name} — an empty line or Ctrl-D ends it`));
  let contextId = options.context;
  let paused: Task | undefined;
  try {
    while (true) {
      const line = await prompter.ask(promptLabel(paused));
      if (line === undefined || line.trim() === "" || line.trim() === "/exit") return;
      const addressing = {
        ...(options.skill ? { skillId: options.skill } : {}),
        ...(contextId ? { contextId } : {}),
        ...(paused ? { taskId: paused.id } : {}),
        signal: out.io.signal,
      };
      const view = new StreamView(out, name);
      const frames = streaming
        ? client.sendStreamingMessage(line, {
            ...addressing,
            ...(options.timeout ? { timeoutMs: options.timeout } : {}),
          })
        : single(client.sendMessage(line, addressing));
      await watchStream(view, frames, { client, out, url });
      contextId = view.task?.contextId || view.message?.contextId || contextId;
      paused = view.task && isInterrupted(view.task) ? view.task : undefined;
    }
  } finally {
    prompter.close();
  }
}

type ChatOptions = ConnectionOptions & { skill?: string; context?: string };

export function registerChat(program: Command, io: CliIo): void {
  addConnectionOptions(
    program
      .command("chat")
      .description("talk to an agent: one context, INPUT_REQUIRED and AUTH_REQUIRED answered in place")
      .argument("<url>", "agent base URL or card URL")
      .option("--skill <id>", "the skill every message runs")
      .option("--context <id>", "continue this conversation"),
  ).action(async (url: string, options: ChatOptions, command: Command) => {
    const out = createOutput(io, command.optsWithGlobals());
    await withAgent(url, options, io, ({ client, card }) => converse(client, card?.name ?? url, url, options, out));
  });
}
