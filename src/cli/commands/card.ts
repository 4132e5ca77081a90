/**
 * `card URL`: fetch, decode, lint and summarise an agent's card;
 * `card sign FILE` and `card verify URL|FILE`: JWS signatures (spec §8.4).
 */
import { readFile } from "node:fs/promises";
import type { JsonObject } from "@bufbuild/protobuf";
import type { Command } from "commander";
import { grpcTransport } from "../../grpc/index.js";
import { A2AError, type AgentCard, AgentCardSchema, Client, type ProtocolBinding } from "../../index.js";
import { decodeMessage } from "../../protocol/index.js";
import { signAgentCard, verifyAgentCardSignatures } from "../../security/index.js";
import { type LintFinding, lintCard, signatureFindings } from "../card-lint.js";
import { CliFailure, CliUsageError } from "../cli-errors.js";
import { addConnectionOptions, type ConnectionOptions, fetchCard } from "../connection.js";
import { EXIT } from "../exit-codes.js";
import type { CliIo } from "../io.js";
import { createOutput, type Output } from "../output.js";
import { readJwkFile, signingAlgorithmOf } from "./keys.js";

const REACHABILITY_TIMEOUT_MS = 5_000;

/** Whether each interface answers A2A at all: a GetTask for an id nobody has must come back as an A2A answer. */
async function reachabilityFindings(card: AgentCard, options: ConnectionOptions): Promise<LintFinding[]> {
  const probes = card.supportedInterfaces.map(async (iface, i): Promise<LintFinding | undefined> => {
    if (!["JSONRPC", "HTTP+JSON", "GRPC"].includes(iface.protocolBinding)) return undefined;
    const where = `supportedInterfaces[${i}] ${iface.protocolBinding} ${iface.url}`;
    let client: Client;
    try {
      client = new Client({
        transports: [grpcTransport()],
        baseUrl: iface.url,
        binding: iface.protocolBinding as ProtocolBinding,
        agentCard: card,
        timeoutMs: options.timeout ?? REACHABILITY_TIMEOUT_MS,
        ...(options.header ? { headers: options.header } : {}),
      });
    } catch (error) {
      return { level: "error", rule: "reachable", message: `${where}: ${(error as Error).message}` };
    }
    try {
      await client.getTask(`novaos-a2a-probe-${crypto.randomUUID()}`);
      return { level: "info", rule: "reachable", message: `${where} answers` };
    } catch (error) {
      if (error instanceof A2AError) return { level: "info", rule: "reachable", message: `${where} answers` };
      return { level: "error", rule: "reachable", message: `${where}: ${(error as Error).message}` };
    } finally {
      await client.close();
    }
  });
  return (await Promise.all(probes)).filter((f): f is LintFinding => f !== undefined);
}

function summaryLines(card: AgentCard, out: Output): string[] {
  const c = out.colors;
  const lines = [`${c.bold(card.name)} ${card.version}${card.description ? ` — ${card.description}` : ""}`];
  if (card.provider) lines.push(`provider: ${card.provider.organization} ${c.dim(card.provider.url)}`);
  lines.push("interfaces:");
  for (const i of card.supportedInterfaces) {
    lines.push(
      `  ${i.protocolBinding.padEnd(10)} ${i.url}  ${c.dim(`A2A ${i.protocolVersion || "?"}${i.tenant ? `, tenant ${i.tenant}` : ""}`)}`,
    );
  }
  const caps = card.capabilities;
  const flags = [
    caps?.streaming ? "streaming" : undefined,
    caps?.pushNotifications ? "push notifications" : undefined,
    caps?.extendedAgentCard ? "extended card" : undefined,
  ].filter(Boolean);
  lines.push(`capabilities: ${flags.join(", ") || "none"}`);
  for (const ext of caps?.extensions ?? [])
    lines.push(`  extension ${ext.uri}${ext.required ? c.yellow(" (required)") : ""}`);
  lines.push("skills:");
  const width = Math.max(0, ...card.skills.map((s) => s.id.length));
  for (const s of card.skills) {
    lines.push(`  ${s.id.padEnd(width)}  ${s.description}${s.tags.length ? c.dim(`  [${s.tags.join(", ")}]`) : ""}`);
  }
  if (card.skills.length === 0) lines.push("  (none)");
  const schemes = Object.keys(card.securitySchemes);
  lines.push(`security: ${schemes.length ? schemes.join(", ") : "none"}`);
  return lines;
}

function findingLine(f: LintFinding, out: Output): string {
  const c = out.colors;
  const mark = f.level === "error" ? c.red("✗") : f.level === "warning" ? c.yellow("!") : c.dim("·");
  return `  ${mark} ${f.rule}: ${f.message}`;
}

/** A card from a file (`-` is stdin) or a URL. */
async function readCardSource(source: string, options: ConnectionOptions, io: CliIo): Promise<JsonObject> {
  if (/^https?:\/\//i.test(source)) return (await fetchCard(source, options, io, io.signal)).json;
  let text: string;
  try {
    text = source === "-" ? await readStream(io.stdin) : await readFile(source, "utf8");
  } catch (error) {
    throw new CliUsageError(`cannot read ${source}: ${(error as Error).message}`);
  }
  try {
    const json = JSON.parse(text) as unknown;
    if (typeof json !== "object" || json === null || Array.isArray(json)) throw new Error("not a JSON object");
    decodeMessage(AgentCardSchema, json, { validateRequired: false });
    return json as JsonObject;
  } catch (error) {
    throw new CliUsageError(`${source} is not an agent card: ${(error as Error).message}`);
  }
}

export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

export function registerCard(program: Command, io: CliIo): void {
  const card = addConnectionOptions(
    program
      .command("card")
      .description("fetch an agent card, lint it and print a summary")
      .argument("[url]", "agent base URL or card URL")
      .option("--jwks <url>", "verify the card's signatures against this JWKS"),
  ).action(async (url: string | undefined, options: ConnectionOptions & { jwks?: string }, command: Command) => {
    if (!url) throw new CliUsageError("card needs a URL (or: card sign FILE, card verify URL|FILE)");
    const out = createOutput(io, command.optsWithGlobals());
    const fetched = await fetchCard(url, options, io, io.signal);
    const findings = [
      ...lintCard(fetched.card),
      ...(await reachabilityFindings(fetched.card, options)),
      ...(await signatureFindings(fetched.json, options.jwks)),
    ];
    const errors = findings.filter((f) => f.level === "error").length;
    if (out.json) {
      out.data({ url: fetched.url, card: fetched.json, lint: findings, ok: errors === 0 });
    } else {
      for (const line of summaryLines(fetched.card, out)) out.line(line);
      out.line("lint:");
      for (const f of findings) out.line(findingLine(f, out));
    }
    if (errors > 0) throw new CliFailure(`the card has ${errors} problem(s)`, EXIT.FAILED);
  });

  // `--jwks` and the connection options belong to `card` itself; `verify` reads them from there.
  card
    .command("verify")
    .description("verify a card's JWS signatures (spec §8.4.3) against the JWKS given with --jwks")
    .argument("<source>", "card URL, agent base URL, JSON file, or - for stdin")
    .action(async (source: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals() as ConnectionOptions & { jwks?: string; json?: boolean };
      const out = createOutput(io, options);
      if (!options.jwks) throw new CliUsageError("card verify needs --jwks URL (where the verification keys are)");
      const json = await readCardSource(source, options, io);
      try {
        await verifyAgentCardSignatures(json, { jwksUrl: options.jwks });
      } catch (error) {
        if (out.json) out.data({ verified: false, reason: (error as Error).message });
        throw new CliFailure(`signature not verified: ${(error as Error).message}`, EXIT.FAILED, { cause: error });
      }
      if (out.json) out.data({ verified: true, jwks: options.jwks });
      else out.line(`${out.colors.green("✓")} signature verified against ${options.jwks}`);
    });

  card
    .command("sign")
    .description("sign a card (detached JWS over its RFC 8785 form, spec §8.4) and print the signed card")
    .argument("<file>", "the card as JSON, or - for stdin")
    .requiredOption("--key <file>", "private JWK file (e.g. from `keys generate --signing`)")
    .option("--kid <kid>", "key id the verifier finds in its JWKS (default: the JWK's kid)")
    .option("--alg <alg>", "JWS algorithm (default: from the key: ES256, EdDSA or RS256)")
    .option("--jku <url>", "JWKS URL named in the protected header (informative)")
    .action(async (file: string, options: { key: string; kid?: string; alg?: string; jku?: string }) => {
      const json = await readCardSource(file, {}, io);
      const jwk = await readJwkFile(options.key);
      const kid = options.kid ?? (typeof jwk.kid === "string" ? jwk.kid : undefined);
      if (!kid) throw new CliUsageError("the key has no kid: pass --kid");
      const alg = options.alg ?? signingAlgorithmOf(jwk);
      const signed = await signAgentCard(json, jwk, { kid, alg, ...(options.jku ? { jku: options.jku } : {}) });
      io.stdout.write(`${JSON.stringify(signed, null, 2)}\n`);
    });
}
