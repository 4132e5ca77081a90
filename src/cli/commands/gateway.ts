/**
 * `gateway run INSTANCE TEXT` and `gateway events RUN_ID`: start a run on the
 * Execution Gateway and follow its events (reconnecting with Last-Event-ID,
 * so each event is shown once). A run that ends failed or cancelled exits 1.
 */
import type { Command } from "commander";
import { GatewayClient, type StreamEvent } from "../../platform/index.js";
import { CliFailure, CliUsageError } from "../cli-errors.js";
import { authFrom } from "../connection.js";
import { EXIT } from "../exit-codes.js";
import type { CliIo } from "../io.js";
import { createOutput, type Output } from "../output.js";
import { addPlatformOptions, type PlatformOptions } from "../platform-options.js";

/** Where the gateway is when `--url` is not given, first set wins. */
export const GATEWAY_URL_ENVS = ["NOVAOS_GATEWAY_URL", "GATEWAY_URL"] as const;
const WHERE = `the Execution Gateway (default: $${GATEWAY_URL_ENVS.join(" or $")})`;

function gatewayClient(options: PlatformOptions & { tenant?: string }, io: CliIo): GatewayClient {
  const baseUrl = options.url ?? GATEWAY_URL_ENVS.map((name) => io.env[name]?.trim()).find(Boolean);
  if (!baseUrl) throw new CliUsageError(`no Execution Gateway: pass --url or set $${GATEWAY_URL_ENVS[0]}`);
  const auth = authFrom(options, io.env);
  return new GatewayClient({
    baseUrl,
    ...(auth ? { auth } : {}),
    ...(options.header ? { headers: options.header } : {}),
    ...(options.timeout ? { timeoutMs: options.timeout } : {}),
    ...(options.tenant ? { tenantId: options.tenant } : {}),
  });
}

function eventJson(event: StreamEvent): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries({
      type: event.type,
      content: event.content,
      status: event.status,
      id: event.id,
      runId: event.runId,
      sequence: event.sequence,
      payload: event.payload,
    }).filter(([, v]) => v !== undefined),
  );
}

/** Prints a run's events until its terminal one; chunks of text run together on a terminal. */
async function follow(events: AsyncIterable<StreamEvent>, out: Output): Promise<void> {
  const c = out.colors;
  let midLine = false;
  const endLine = () => {
    if (midLine) out.io.stdout.write("\n");
    midLine = false;
  };
  for await (const event of events) {
    if (out.json) {
      out.io.stdout.write(`${JSON.stringify(eventJson(event))}\n`);
    } else if (event.type === "chunk" && out.live) {
      out.io.stdout.write(event.content ?? "");
      midLine = true;
    } else {
      endLine();
      const detail =
        event.status ?? event.content ?? (event.payload === undefined ? "" : JSON.stringify(event.payload));
      const label = event.isFailure ? c.red(event.type) : event.isTerminal ? c.green(event.type) : c.cyan(event.type);
      out.line(`${label}${detail ? ` ${detail}` : ""}`);
    }
    if (event.isTerminal) {
      endLine();
      if (event.isFailure) throw new CliFailure(`the run ended ${event.status ?? event.type}`, EXIT.FAILED);
      return;
    }
  }
}

type RunOptions = PlatformOptions & { tenant?: string; thread?: string; conversation?: string; follow?: boolean };

export function registerGateway(program: Command, io: CliIo): void {
  const gateway = program.command("gateway").description("runs on the NovaOS Execution Gateway");

  addPlatformOptions(
    gateway
      .command("run")
      .description("start a run of an installed agent instance and follow its events")
      .argument("<instance-id>", "the agent instance (UUID)")
      .argument("<text>", "the input")
      .option("--tenant <id>", "sent as X-Tenant-ID")
      .option("--thread <id>", "continue this thread (UUID)")
      .option("--conversation <id>", "group into this conversation (UUID)")
      .option("--no-follow", "print the run id and return"),
    WHERE,
  ).action(async (instanceId: string, text: string, options: RunOptions, command: Command) => {
    const out = createOutput(io, command.optsWithGlobals());
    await using client = gatewayClient(options, io);
    const run = await client.execute({
      instanceId,
      inputText: text,
      signal: io.signal,
      ...(options.thread ? { threadId: options.thread } : {}),
      ...(options.conversation ? { conversationId: options.conversation } : {}),
    });
    if (out.json) out.io.stdout.write(`${JSON.stringify({ runId: run.runId, status: run.status })}\n`);
    else out.line(`run ${run.runId} ${run.status ?? ""}`.trimEnd());
    if (options.follow === false) return;
    await follow(client.eventsWithReconnect(run.runId, { signal: io.signal }), out);
  });

  addPlatformOptions(
    gateway
      .command("events")
      .description("follow a run's events to its end")
      .argument("<run-id>")
      .option("--tenant <id>", "sent as X-Tenant-ID")
      .option("--last-event-id <id>", "resume after this event"),
    WHERE,
  ).action(
    async (runId: string, options: PlatformOptions & { tenant?: string; lastEventId?: string }, command: Command) => {
      const out = createOutput(io, command.optsWithGlobals());
      await using client = gatewayClient(options, io);
      await follow(
        client.eventsWithReconnect(runId, {
          signal: io.signal,
          ...(options.lastEventId ? { lastEventId: options.lastEventId } : {}),
        }),
        out,
      );
    },
  );
}
