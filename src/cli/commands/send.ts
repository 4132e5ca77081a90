/** `send URL TEXT` and `stream URL TEXT`: one message, answered at once or as a stream. */
import type { Command } from "commander";
import { type Client, type Message, MessageSchema, type StreamResponse, type Task, TaskSchema } from "../../index.js";
import { encodeMessage } from "../../protocol/index.js";
import { addConnectionOptions, type ConnectionOptions, withAgent } from "../connection.js";
import type { CliIo } from "../io.js";
import { addMessageOptions, addressingOf, buildMessage, type MessageOptions } from "../message-options.js";
import { createOutput, type Output } from "../output.js";
import { StreamView } from "../render/stream-view.js";
import { messageLines, taskLines } from "../render/task-text.js";
import { failIfUnsuccessful, interrupted } from "../task-outcome.js";

/** `{"task": …}` or `{"message": …}`: the SendMessageResponse shape of the wire. */
export function resultJson(result: Task | Message): Record<string, unknown> {
  return result.$typeName === "lf.a2a.v1.Task"
    ? { task: encodeMessage(TaskSchema, result) }
    : { message: encodeMessage(MessageSchema, result) };
}

export function printResult(result: Task | Message, out: Output): void {
  if (out.json) {
    out.data(resultJson(result));
    return;
  }
  const lines =
    result.$typeName === "lf.a2a.v1.Task" ? taskLines(result, out.colors) : messageLines(result, out.colors);
  for (const line of lines) out.line(line);
}

type SendOptions = ConnectionOptions & MessageOptions & { returnImmediately?: boolean };

export function registerSend(program: Command, io: CliIo): void {
  addConnectionOptions(
    addMessageOptions(
      program
        .command("send")
        .description("send a message; print the task (or message) the agent answers with")
        .argument("<url>", "agent base URL or card URL")
        .argument("[text]", "the message text")
        .option("--return-immediately", "answer as soon as the task exists instead of when it stops"),
    ),
  ).action(async (url: string, text: string | undefined, options: SendOptions, command: Command) => {
    const out = createOutput(io, command.optsWithGlobals());
    const message = await buildMessage(text, options);
    await withAgent(url, options, io, async ({ client }) => {
      const result = await client.sendMessage(message, {
        ...addressingOf(options),
        signal: io.signal,
        ...(options.returnImmediately ? { returnImmediately: true } : {}),
      });
      printResult(result, out);
      failIfUnsuccessful(result);
    });
  });

  addConnectionOptions(
    addMessageOptions(
      program
        .command("stream")
        .description("send a message and show the task's stream as it arrives (Ctrl-C stops; offers to cancel)")
        .argument("<url>", "agent base URL or card URL")
        .argument("[text]", "the message text"),
    ),
  ).action(
    async (url: string, text: string | undefined, options: ConnectionOptions & MessageOptions, command: Command) => {
      const out = createOutput(io, command.optsWithGlobals());
      const message = await buildMessage(text, options);
      await withAgent(url, options, io, async ({ client }) => {
        const view = new StreamView(out);
        await watchStream(
          view,
          client.sendStreamingMessage(message, {
            ...addressingOf(options),
            signal: io.signal,
            ...(options.timeout ? { timeoutMs: options.timeout } : {}),
          }),
          { client, out, url },
        );
        failIfUnsuccessful(view.task ?? view.message);
      });
    },
  );
}

/** Renders `frames` into `view`; on Ctrl-C offers to cancel the task being watched. */
export async function watchStream(
  view: StreamView,
  frames: AsyncIterable<StreamResponse>,
  context: { client: Client; out: Output; url: string },
): Promise<void> {
  view.start();
  try {
    for await (const frame of frames) view.frame(frame);
  } catch (error) {
    view.finish();
    if (context.out.io.signal.aborted) await interrupted(view.task, context.client, context.out, context.url);
    throw error;
  }
  view.finish();
}
