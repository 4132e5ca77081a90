/** `task get|list|cancel|subscribe`: the task methods of spec §3.1.3–§3.1.6. */
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { ListTasksResponseSchema, TaskSchema } from "../../index.js";
import { encodeMessage } from "../../protocol/index.js";
import { addConnectionOptions, type ConnectionOptions, withAgent } from "../connection.js";
import type { CliIo } from "../io.js";
import { createOutput } from "../output.js";
import { StreamView } from "../render/stream-view.js";
import { paintState, taskLines } from "../render/task-text.js";
import { watchStream } from "./send.js";

async function* onePage<T>(page: Promise<T>): AsyncGenerator<T> {
  yield await page;
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a whole number ≥ 0.");
  return n;
}

export function registerTask(program: Command, io: CliIo): void {
  const task = program.command("task").description("read, list, cancel and follow tasks");

  addConnectionOptions(
    task
      .command("get")
      .description("the task as the agent holds it now")
      .argument("<url>", "agent base URL or card URL")
      .argument("<task-id>")
      .option("--history <n>", "at most this many history messages", parseCount),
  ).action(async (url: string, taskId: string, options: ConnectionOptions & { history?: number }, command: Command) => {
    const out = createOutput(io, command.optsWithGlobals());
    await withAgent(url, options, io, async ({ client }) => {
      const result = await client.getTask(taskId, {
        signal: io.signal,
        ...(options.history !== undefined ? { historyLength: options.history } : {}),
      });
      if (out.json) out.data(encodeMessage(TaskSchema, result));
      else for (const line of taskLines(result, out.colors)) out.line(line);
    });
  });

  addConnectionOptions(
    task
      .command("list")
      .description("tasks, most recently updated first")
      .argument("<url>", "agent base URL or card URL")
      .option("--context <id>", "only this conversation")
      .option("--status <state>", "only this state, e.g. TASK_STATE_WORKING")
      .option("--page-size <n>", "tasks per page", parseCount)
      .option("--page-token <token>", "continue from this page")
      .option("--all", "follow nextPageToken to the last page"),
  ).action(
    async (
      url: string,
      options: ConnectionOptions & {
        context?: string;
        status?: string;
        pageSize?: number;
        pageToken?: string;
        all?: boolean;
      },
      command: Command,
    ) => {
      const out = createOutput(io, command.optsWithGlobals());
      const status = options.status?.toUpperCase().replaceAll("-", "_");
      const filter = {
        signal: io.signal,
        ...(options.context ? { contextId: options.context } : {}),
        ...(status ? { status: status.startsWith("TASK_STATE_") ? status : `TASK_STATE_${status}` } : {}),
        ...(options.pageSize ? { pageSize: options.pageSize } : {}),
        ...(options.pageToken ? { pageToken: options.pageToken } : {}),
      };
      await withAgent(url, options, io, async ({ client }) => {
        const pages = options.all ? client.listTasksPages(filter) : onePage(client.listTasks(filter));
        for await (const page of pages) {
          if (out.json) {
            out.data(encodeMessage(ListTasksResponseSchema, page));
            continue;
          }
          for (const t of page.tasks) {
            out.line(`${t.id}  ${paintState(t.status?.state, out.colors)}  ${out.colors.dim(t.contextId)}`);
          }
          if (page.tasks.length === 0) out.note("no tasks");
          if (page.nextPageToken && !options.all) out.note(`more: --page-token ${page.nextPageToken}`);
        }
      });
    },
  );

  addConnectionOptions(
    task
      .command("cancel")
      .description("ask the agent to cancel a task; prints the state it answers with")
      .argument("<url>", "agent base URL or card URL")
      .argument("<task-id>"),
  ).action(async (url: string, taskId: string, options: ConnectionOptions, command: Command) => {
    const out = createOutput(io, command.optsWithGlobals());
    await withAgent(url, options, io, async ({ client }) => {
      const result = await client.cancelTask(taskId, { signal: io.signal });
      if (out.json) out.data(encodeMessage(TaskSchema, result));
      else for (const line of taskLines(result, out.colors)) out.line(line);
    });
  });

  addConnectionOptions(
    task
      .command("subscribe")
      .description("follow a running task's stream (its current state first)")
      .argument("<url>", "agent base URL or card URL")
      .argument("<task-id>"),
  ).action(async (url: string, taskId: string, options: ConnectionOptions, command: Command) => {
    const out = createOutput(io, command.optsWithGlobals());
    await withAgent(url, options, io, async ({ client }) => {
      await watchStream(
        new StreamView(out),
        client.subscribeToTask(taskId, {
          signal: io.signal,
          ...(options.timeout ? { timeoutMs: options.timeout } : {}),
        }),
        { client, out, url },
      );
    });
  });
}
