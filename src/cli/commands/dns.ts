/** `dns find` and `dns get NAME`: where agents are, from the Agent DNS registry. */
import type { Command } from "commander";
import { AgentDNSClient, type AgentDNSRecord, type AgentFilters, getDnsUrlFromEnv } from "../../discovery/index.js";
import { CliFailure, CliUsageError } from "../cli-errors.js";
import { authFrom } from "../connection.js";
import { EXIT } from "../exit-codes.js";
import type { CliIo } from "../io.js";
import { createOutput, type Output } from "../output.js";
import { addPlatformOptions, type PlatformOptions } from "../platform-options.js";

function dnsClient(options: PlatformOptions, io: CliIo): AgentDNSClient {
  let baseUrl: string;
  try {
    baseUrl = getDnsUrlFromEnv({ ...(options.url ? { customUrl: options.url } : {}), env: io.env });
  } catch (error) {
    throw new CliUsageError(`no Agent DNS: pass --url or set AGENT_DNS_URL (${(error as Error).message})`);
  }
  const auth = authFrom(options, io.env);
  return new AgentDNSClient({
    baseUrl,
    ...(auth ? { auth } : {}),
    ...(options.header ? { headers: options.header } : {}),
    ...(options.timeout ? { timeoutMs: options.timeout } : {}),
  });
}

function recordLine(record: AgentDNSRecord, out: Output): string {
  const c = out.colors;
  const status = record.isAvailable ? c.green(record.status) : c.yellow(record.status);
  const caps = record.getCapabilities().map((cap) => cap.name);
  return `${c.bold(record.name)}  ${record.url}  ${status}${caps.length ? c.dim(`  ${caps.join(", ")}`) : ""}`;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

type FindOptions = PlatformOptions & {
  name?: string;
  capability?: string[];
  any?: boolean;
  fuzzy?: boolean;
  domain?: string;
  tag?: string;
  status?: string;
  query?: string;
};

export function registerDns(program: Command, io: CliIo): void {
  const dns = program.command("dns").description("find agents in the Agent DNS registry ($AGENT_DNS_URL)");

  addPlatformOptions(
    dns
      .command("find")
      .description("agents matching every filter given (all agents without filters)")
      .option("--name <text>", "name contains this (case-insensitive)")
      .option("--capability <name>", "declares this capability (repeatable)", collect)
      .option("--any", "any of the --capability names instead of all")
      .option("--fuzzy", "compare capabilities by similarity")
      .option("--domain <domain>", "serves this domain")
      .option("--tag <tag>", "carries this tag")
      .option("--status <status>", "registry status, e.g. active")
      .option("--query <text>", "free-text search (the registry decides what matches)"),
    "the Agent DNS registry (default: $AGENT_DNS_URL, $ACP_DNS_URL or $DNS_SERVICE_HOST)",
  ).action(async (options: FindOptions, command: Command) => {
    const out = createOutput(io, command.optsWithGlobals());
    const client = dnsClient(options, io);
    const filters: AgentFilters = {
      ...(options.name ? { name: options.name } : {}),
      ...(options.capability ? { capabilities: options.capability } : {}),
      ...(options.any ? { requireAllCapabilities: false } : {}),
      ...(options.fuzzy ? { fuzzyMatch: true } : {}),
      ...(options.domain ? { domain: options.domain } : {}),
      ...(options.tag ? { tag: options.tag } : {}),
      ...(options.status ? { status: options.status } : {}),
    };
    const records = options.query
      ? client.searchAgents(options.query, { signal: io.signal })
      : client.findAgents(filters, { signal: io.signal });
    const found: AgentDNSRecord[] = [];
    for await (const record of records) {
      found.push(record);
      if (!out.json) out.line(recordLine(record, out));
    }
    if (out.json) out.data(found.map((r) => r.toJSON()));
    else if (found.length === 0) out.note("no agents found");
  });

  addPlatformOptions(
    dns.command("get").description("the record of one agent, by exact name").argument("<name>"),
    "the Agent DNS registry (default: $AGENT_DNS_URL, $ACP_DNS_URL or $DNS_SERVICE_HOST)",
  ).action(async (name: string, options: PlatformOptions, command: Command) => {
    const out = createOutput(io, command.optsWithGlobals());
    const record = await dnsClient(options, io).getAgent(name, { signal: io.signal });
    if (!record) throw new CliFailure(`Agent DNS has no agent named ${JSON.stringify(name)}`, EXIT.FAILED);
    if (out.json) out.data(record.toJSON());
    else out.line(recordLine(record, out));
  });
}
