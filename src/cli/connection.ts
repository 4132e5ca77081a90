/**
 * The options every command that talks to an agent takes (`--binding`,
 * `--tenant`, `--header`, `--auth`, `--timeout`, `--no-card`), and turning
 * them plus a URL into a `Client`. The URL is an agent's base URL or its
 * well-known card URL; the card decides the interface unless `--no-card`
 * says to call the URL as given.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { type Command, InvalidArgumentError, Option } from "commander";
import { AgentDiscoveryService } from "../discovery/index.js";
import { grpcTransport } from "../grpc/index.js";
import {
  AGENT_CARD_PATH,
  type AgentCard,
  AgentCardSchema,
  ApiKeyAuth,
  type AuthProvider,
  BearerTokenAuth,
  Client,
  PROTOCOL_BINDING_GRPC,
  PROTOCOL_BINDING_HTTP_JSON,
  PROTOCOL_BINDING_JSONRPC,
  type ProtocolBinding,
} from "../index.js";
import { decodeMessage } from "../protocol/index.js";
import { CliUsageError } from "./cli-errors.js";
import type { CliIo } from "./io.js";

/** Where `--auth bearer` and `--auth apikey` read their secret when `--token` is not given. */
export const TOKEN_ENV = "NOVAOS_A2A_TOKEN";
export const API_KEY_ENV = "ACP_API_KEY";

export interface ConnectionOptions {
  binding?: ProtocolBinding;
  tenant?: string;
  header?: Record<string, string>;
  auth?: "bearer" | "apikey";
  token?: string;
  /** Milliseconds. */
  timeout?: number;
  /** `--no-card` sets it to false. */
  card?: boolean;
}

const BINDING_NAMES: Record<string, ProtocolBinding> = {
  jsonrpc: PROTOCOL_BINDING_JSONRPC,
  "json-rpc": PROTOCOL_BINDING_JSONRPC,
  "http+json": PROTOCOL_BINDING_HTTP_JSON,
  rest: PROTOCOL_BINDING_HTTP_JSON,
  grpc: PROTOCOL_BINDING_GRPC,
};

export function parseBinding(value: string): ProtocolBinding {
  const binding = BINDING_NAMES[value.toLowerCase()];
  if (!binding) throw new InvalidArgumentError("expected JSONRPC, HTTP+JSON (or REST) or GRPC.");
  return binding;
}

/** `Name: value`, repeatable; later ones win. */
export function collectHeader(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const colon = value.indexOf(":");
  const name = colon > 0 ? value.slice(0, colon).trim() : "";
  if (!name) throw new InvalidArgumentError('expected "Name: value".');
  return { ...previous, [name]: value.slice(colon + 1).trim() };
}

/** Seconds (decimals allowed) into milliseconds. */
export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new InvalidArgumentError("expected a number of seconds > 0.");
  return Math.round(seconds * 1000);
}

/** `-H`, `--auth`, `--token`: what every command that calls a service takes. */
export function addCredentialOptions(command: Command): Command {
  return command
    .option("-H, --header <header>", 'extra request header "Name: value" (repeatable)', collectHeader)
    .addOption(
      new Option("--auth <scheme>", `credentials: bearer ($${TOKEN_ENV}) or apikey ($${API_KEY_ENV})`).choices([
        "bearer",
        "apikey",
      ]),
    )
    .option("--token <secret>", "the bearer token or API key (prefer the environment: argv is visible to other users)");
}

export function addConnectionOptions(command: Command): Command {
  return addCredentialOptions(
    command
      .addOption(
        new Option("--binding <binding>", "JSONRPC, HTTP+JSON (REST) or GRPC (default: the card's first)").argParser(
          parseBinding,
        ),
      )
      .option("--tenant <tenant>", "tenant sent with every request (default: the card's)"),
  )
    .option("--timeout <seconds>", "deadline of each call, streams included", parseSeconds)
    .option("--no-card", "do not fetch the agent card: call URL itself with --binding (default JSONRPC)");
}

export function authFrom(options: ConnectionOptions, env: CliIo["env"]): AuthProvider | undefined {
  if (!options.auth) return undefined;
  const envName = options.auth === "bearer" ? TOKEN_ENV : API_KEY_ENV;
  const secret = options.token ?? env[envName]?.trim();
  if (!secret) throw new CliUsageError(`--auth ${options.auth} needs --token or $${envName}`);
  return options.auth === "bearer" ? new BearerTokenAuth(secret) : new ApiKeyAuth(secret);
}

/** The agent's base URL for a well-known card URL; other URLs (a base, or a card's own `.json` URL) as given. */
export function agentBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliUsageError(`not an absolute URL: ${url}`);
  }
  if (parsed.pathname.endsWith(AGENT_CARD_PATH))
    parsed.pathname = parsed.pathname.slice(0, -AGENT_CARD_PATH.length) || "/";
  return parsed.href;
}

export interface FetchedCard {
  card: AgentCard;
  /** The card exactly as served (signatures are checked over it). */
  json: JsonObject;
  /** The card response's headers (caching). */
  headers: Headers | undefined;
  url: string;
}

/** Fetches the public card at `url` (base or card URL), keeping the raw JSON and the response headers. */
export async function fetchCard(
  url: string,
  options: ConnectionOptions,
  io: CliIo,
  signal?: AbortSignal,
): Promise<FetchedCard> {
  let headers: Headers | undefined;
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    headers = response.headers;
    return response;
  };
  const auth = authFrom(options, io.env);
  await using discovery = new AgentDiscoveryService({
    baseUrl: agentBaseUrl(url),
    cacheTtlMs: null,
    fetch: recordingFetch,
    ...(auth ? { auth } : {}),
    ...(options.header ? { headers: options.header } : {}),
    ...(options.timeout ? { timeoutMs: options.timeout } : {}),
  });
  const json = await discovery.agentCardJson({ signal });
  const card = decodeMessage(AgentCardSchema, json, { validateRequired: false });
  return { card, json, headers, url: discovery.cardUrl };
}

export interface OpenedAgent {
  client: Client;
  card: AgentCard | undefined;
}

/** A client for the agent at `url`: through its card, or (with `--no-card`) at `url` itself. */
export async function openAgent(url: string, options: ConnectionOptions, io: CliIo): Promise<OpenedAgent> {
  const auth = authFrom(options, io.env);
  const common = {
    transports: [grpcTransport()],
    ...(auth ? { auth } : {}),
    ...(options.header ? { headers: options.header } : {}),
    ...(options.tenant !== undefined ? { tenant: options.tenant } : {}),
    ...(options.timeout ? { timeoutMs: options.timeout } : {}),
  };
  if (options.card === false) {
    const client = new Client({
      ...common,
      baseUrl: agentBaseUrl(url),
      binding: options.binding ?? PROTOCOL_BINDING_JSONRPC,
    });
    return { client, card: undefined };
  }
  const { card } = await fetchCard(url, options, io, io.signal);
  const client = Client.fromAgentCard(card, {
    ...common,
    ...(options.binding ? { config: { preferredBindings: [options.binding], useClientPreference: true } } : {}),
  });
  return { client, card };
}

/** Runs `use` with a client for the agent at `url`, closing the client afterwards. */
export async function withAgent<T>(
  url: string,
  options: ConnectionOptions,
  io: CliIo,
  use: (agent: OpenedAgent) => Promise<T>,
): Promise<T> {
  const agent = await openAgent(url, options, io);
  try {
    return await use(agent);
  } finally {
    await agent.client.close();
  }
}
