/**
 * Runs the requirement table against one agent: its card, then every
 * interface it declares in a standard binding at A2A 1.0 (or `bindings`), one
 * requirement at a time. A probe that throws fails its requirement with the
 * error's message; it never stops the run.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import {
  type AgentCard,
  type AgentInterface,
  PROTOCOL_BINDING_GRPC,
  PROTOCOL_BINDING_HTTP_JSON,
  PROTOCOL_BINDING_JSONRPC,
  type ProtocolBinding,
} from "../../index.js";
import { GrpcWire } from "./grpc-wire.js";
import { HttpJsonWire } from "./http-json-wire.js";
import { JsonRpcWire } from "./jsonrpc-wire.js";
import {
  type BindingContext,
  type CheckOptions,
  type Level,
  type Requirement,
  skip,
  type Verdict,
} from "./requirement.js";
import { REACHABLE, REQUIREMENTS } from "./requirements/index.js";
import type { Wire } from "./wire.js";

export interface RequirementResult {
  readonly id: string;
  readonly section: string;
  readonly level: Level;
  readonly title: string;
  /** The interface it ran on; absent for card requirements. */
  readonly binding?: ProtocolBinding | undefined;
  readonly url?: string | undefined;
  readonly status: Verdict["status"];
  readonly reason?: string | undefined;
}

export interface CheckedCard {
  readonly card: AgentCard;
  readonly json: JsonObject;
  readonly headers: Headers;
}

const STANDARD: readonly string[] = [PROTOCOL_BINDING_JSONRPC, PROTOCOL_BINDING_HTTP_JSON, PROTOCOL_BINDING_GRPC];

/** The interfaces to check: standard bindings at A2A 1.0 (or unversioned), optionally only some bindings. */
export function interfacesToCheck(card: AgentCard, only?: readonly ProtocolBinding[]): AgentInterface[] {
  return card.supportedInterfaces.filter(
    (i) =>
      STANDARD.includes(i.protocolBinding) &&
      (i.protocolVersion === "" || /^1\.0(\.\d+)?$/.test(i.protocolVersion)) &&
      (!only || only.includes(i.protocolBinding as ProtocolBinding)),
  );
}

function wireFor(iface: AgentInterface, options: CheckOptions): Wire {
  const headers = { ...options.headers };
  switch (iface.protocolBinding) {
    case PROTOCOL_BINDING_JSONRPC:
      return new JsonRpcWire(iface.url, options.timeoutMs, headers);
    case PROTOCOL_BINDING_HTTP_JSON:
      return new HttpJsonWire(iface.url, options.timeoutMs, headers);
    default:
      return new GrpcWire(iface.url, options.timeoutMs, headers);
  }
}

async function verdictOf(run: () => Verdict | Promise<Verdict>): Promise<Verdict> {
  try {
    return await run();
  } catch (error) {
    return { status: "fail", reason: `the probe failed: ${(error as Error).message}` };
  }
}

function resultOf(requirement: Requirement, verdict: Verdict, iface?: AgentInterface): RequirementResult {
  return {
    id: requirement.id,
    section: requirement.section,
    level: requirement.level,
    title: requirement.title,
    ...(iface ? { binding: iface.protocolBinding as ProtocolBinding, url: iface.url } : {}),
    status: verdict.status,
    ...(verdict.reason ? { reason: verdict.reason } : {}),
  };
}

export async function runCheck(
  checked: CheckedCard,
  options: CheckOptions,
  only: readonly ProtocolBinding[] | undefined,
  onResult: (result: RequirementResult) => void,
): Promise<RequirementResult[]> {
  const results: RequirementResult[] = [];
  const report = (result: RequirementResult) => {
    results.push(result);
    onResult(result);
  };
  const cardContext = { card: checked.card, cardJson: checked.json, cardHeaders: checked.headers, options };
  for (const requirement of REQUIREMENTS) {
    if (requirement.scope === "card")
      report(resultOf(requirement, await verdictOf(() => requirement.run(cardContext))));
  }
  for (const iface of interfacesToCheck(checked.card, only)) {
    const wire = wireFor(iface, options);
    const memos = new Map<string, Promise<unknown>>();
    const ctx: BindingContext = {
      binding: iface.protocolBinding as ProtocolBinding,
      iface,
      card: checked.card,
      wire,
      options,
      memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
        let value = memos.get(key) as Promise<T> | undefined;
        if (!value) {
          value = compute();
          memos.set(key, value);
        }
        return value;
      },
    };
    try {
      let reachable = true;
      for (const requirement of REQUIREMENTS) {
        if (requirement.scope !== "binding") continue;
        if (requirement.bindings && !requirement.bindings.includes(ctx.binding)) continue;
        const verdict = reachable
          ? await verdictOf(() => requirement.run(ctx))
          : skip("the interface does not answer A2A");
        if (requirement === REACHABLE && verdict.status !== "pass") reachable = false;
        report(resultOf(requirement, verdict, iface));
      }
    } finally {
      await wire.close();
    }
  }
  return results;
}
