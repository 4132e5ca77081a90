/**
 * What `card` checks in an Agent Card, rule by rule (the `check` command's
 * card requirements read the same functions): REQUIRED fields (spec §5.7),
 * the interfaces (§8.3.1, §3.6), well-formed skills (§4.4.5), and the
 * signatures (§8.4) when a JWKS is given.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import {
  type AgentCard,
  AgentCardSchema,
  PROTOCOL_BINDING_GRPC,
  PROTOCOL_BINDING_HTTP_JSON,
  PROTOCOL_BINDING_JSONRPC,
} from "../index.js";
import { requiredFieldViolations } from "../protocol/index.js";
import { verifyAgentCardSignatures } from "../security/index.js";

export type LintLevel = "error" | "warning" | "info";

export interface LintFinding {
  readonly level: LintLevel;
  readonly rule: string;
  readonly message: string;
}

const STANDARD_BINDINGS = new Set<string>([
  PROTOCOL_BINDING_JSONRPC,
  PROTOCOL_BINDING_HTTP_JSON,
  PROTOCOL_BINDING_GRPC,
]);
const MAJOR_MINOR = /^\d+\.\d+$/;
const MEDIA_TYPE = /^[\w.+-]+\/[\w.+*-]+(?:\s*;.*)?$/;

/** REQUIRED fields missing or empty (§5.7: required arrays need one element). */
export function requiredFieldFindings(card: AgentCard): LintFinding[] {
  return requiredFieldViolations(AgentCardSchema, card).map((v) => ({
    level: "error",
    rule: "required-field",
    message: `${v.field}: ${v.description}`,
  }));
}

/** Whether `url` is something a client can dial for `binding` (gRPC cards may list a bare host:port). */
function dialable(url: string, binding: string): boolean {
  if (binding === PROTOCOL_BINDING_GRPC && /^[\w.-]+:\d+$|^\[[\d:a-f]+\]:\d+$/i.test(url)) return true;
  try {
    const parsed = new URL(url);
    return ["http:", "https:", "grpc:", "grpcs:"].includes(parsed.protocol);
  } catch {
    return false;
  }
}

/** Each interface declares a binding and a usable URL; versions are Major.Minor; one is A2A 1.0 (§8.3.1, §3.6). */
export function interfaceFindings(card: AgentCard): LintFinding[] {
  const out: LintFinding[] = [];
  for (const [i, iface] of card.supportedInterfaces.entries()) {
    const where = `supportedInterfaces[${i}]`;
    if (!iface.protocolBinding)
      out.push({ level: "error", rule: "interface", message: `${where} has no protocolBinding` });
    else if (!STANDARD_BINDINGS.has(iface.protocolBinding)) {
      out.push({ level: "info", rule: "interface", message: `${where}: custom binding ${iface.protocolBinding}` });
    }
    if (!dialable(iface.url, iface.protocolBinding)) {
      out.push({
        level: "error",
        rule: "interface",
        message: `${where}: url ${JSON.stringify(iface.url)} is not a URL a client can call`,
      });
    }
    if (iface.protocolVersion && !MAJOR_MINOR.test(iface.protocolVersion)) {
      out.push({
        level: "warning",
        rule: "protocol-version",
        message: `${where}: protocolVersion ${JSON.stringify(iface.protocolVersion)} is not Major.Minor (§3.6: no patch versions)`,
      });
    }
  }
  const v1 = card.supportedInterfaces.some(
    (i) =>
      STANDARD_BINDINGS.has(i.protocolBinding) &&
      (i.protocolVersion === "" || /^1\.0(\.\d+)?$/.test(i.protocolVersion)),
  );
  if (!v1)
    out.push({ level: "error", rule: "interface", message: "no JSONRPC, HTTP+JSON or GRPC interface at A2A 1.0" });
  return out;
}

/** Skills have unique ids, and their input and output modes are media types (§4.4.5). */
export function skillFindings(card: AgentCard): LintFinding[] {
  const out: LintFinding[] = [];
  const seen = new Set<string>();
  for (const skill of card.skills) {
    if (skill.id && seen.has(skill.id))
      out.push({ level: "error", rule: "skill", message: `skill id ${JSON.stringify(skill.id)} appears twice` });
    seen.add(skill.id);
    for (const mode of [...skill.inputModes, ...skill.outputModes]) {
      if (!MEDIA_TYPE.test(mode)) {
        out.push({
          level: "warning",
          rule: "skill",
          message: `skill ${skill.id}: ${JSON.stringify(mode)} is not a media type`,
        });
      }
    }
  }
  for (const mode of [...card.defaultInputModes, ...card.defaultOutputModes]) {
    if (!MEDIA_TYPE.test(mode))
      out.push({ level: "warning", rule: "modes", message: `${JSON.stringify(mode)} is not a media type` });
  }
  return out;
}

/** With a JWKS: at least one signature verifies over the card as served (§8.4.3). Without: what is there. */
export async function signatureFindings(json: JsonObject, jwksUrl: string | undefined): Promise<LintFinding[]> {
  const count = Array.isArray(json.signatures) ? json.signatures.length : 0;
  if (!jwksUrl) {
    return [
      {
        level: "info",
        rule: "signature",
        message: count === 0 ? "unsigned" : `${count} signature(s), not verified (pass --jwks URL)`,
      },
    ];
  }
  try {
    await verifyAgentCardSignatures(json, { jwksUrl });
    return [{ level: "info", rule: "signature", message: `signature verified against ${jwksUrl}` }];
  } catch (error) {
    return [{ level: "error", rule: "signature", message: (error as Error).message }];
  }
}

export function lintCard(card: AgentCard): LintFinding[] {
  return [...requiredFieldFindings(card), ...interfaceFindings(card), ...skillFindings(card)];
}
