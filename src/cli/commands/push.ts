/** `push create|get|list|delete`: a task's webhook configurations (spec §3.1.7–§3.1.10). */
import type { Command } from "commander";
import {
  ListTaskPushNotificationConfigsResponseSchema,
  type TaskPushNotificationConfig,
  TaskPushNotificationConfigSchema,
} from "../../index.js";
import { encodeMessage } from "../../protocol/index.js";
import { addConnectionOptions, type ConnectionOptions, withAgent } from "../connection.js";
import type { CliIo } from "../io.js";
import { createOutput, type Output } from "../output.js";

function printConfig(config: TaskPushNotificationConfig, out: Output): void {
  if (out.json) out.data(encodeMessage(TaskPushNotificationConfigSchema, config));
  else out.line(`${config.id}  ${config.url}  ${out.colors.dim(`task ${config.taskId}`)}`);
}

export function registerPush(program: Command, io: CliIo): void {
  const push = program.command("push").description("manage a task's push notification (webhook) configs");

  addConnectionOptions(
    push
      .command("create")
      .description("register a webhook for a task's updates")
      .argument("<url>", "agent base URL or card URL")
      .argument("<task-id>")
      .argument("<webhook-url>", "where the agent POSTs the updates")
      .option("--id <id>", "the config id (default: the agent chooses)")
      .option("--webhook-token <token>", "token the agent sends with each notification"),
  ).action(
    async (
      url: string,
      taskId: string,
      webhook: string,
      options: ConnectionOptions & { id?: string; webhookToken?: string },
      command: Command,
    ) => {
      const out = createOutput(io, command.optsWithGlobals());
      await withAgent(url, options, io, async ({ client }) => {
        const config = await client.createTaskPushNotificationConfig(
          {
            taskId,
            url: webhook,
            ...(options.id ? { id: options.id } : {}),
            ...(options.webhookToken ? { token: options.webhookToken } : {}),
          },
          { signal: io.signal },
        );
        printConfig(config, out);
      });
    },
  );

  addConnectionOptions(
    push
      .command("get")
      .description("one webhook config")
      .argument("<url>", "agent base URL or card URL")
      .argument("<task-id>")
      .argument("<config-id>"),
  ).action(async (url: string, taskId: string, configId: string, options: ConnectionOptions, command: Command) => {
    const out = createOutput(io, command.optsWithGlobals());
    await withAgent(url, options, io, async ({ client }) => {
      printConfig(await client.getTaskPushNotificationConfig(taskId, configId, { signal: io.signal }), out);
    });
  });

  addConnectionOptions(
    push
      .command("list")
      .description("a task's webhook configs")
      .argument("<url>", "agent base URL or card URL")
      .argument("<task-id>"),
  ).action(async (url: string, taskId: string, options: ConnectionOptions, command: Command) => {
    const out = createOutput(io, command.optsWithGlobals());
    await withAgent(url, options, io, async ({ client }) => {
      const page = await client.listTaskPushNotificationConfigs(taskId, { signal: io.signal });
      if (out.json) return out.data(encodeMessage(ListTaskPushNotificationConfigsResponseSchema, page));
      for (const config of page.configs) printConfig(config, out);
      if (page.configs.length === 0) out.note("no push notification configs");
    });
  });

  addConnectionOptions(
    push
      .command("delete")
      .description("remove a webhook config")
      .argument("<url>", "agent base URL or card URL")
      .argument("<task-id>")
      .argument("<config-id>"),
  ).action(async (url: string, taskId: string, configId: string, options: ConnectionOptions, command: Command) => {
    const out = createOutput(io, command.optsWithGlobals());
    await withAgent(url, options, io, async ({ client }) => {
      await client.deleteTaskPushNotificationConfig(taskId, configId, { signal: io.signal });
      if (out.json) out.data({ deleted: configId, taskId });
      else out.line(`deleted ${configId}`);
    });
  });
}
