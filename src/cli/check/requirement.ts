/**
 * A requirement of the A2A specification as `check` verifies it: an id, the
 * section it comes from, its level, one line saying what must be true, and
 * the probe that decides pass, fail or skip (with a one-line reason). Card
 * requirements run once; binding requirements run on every interface the
 * card declares.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import type { AgentCard, AgentInterface, ProtocolBinding } from "../../index.js";
import type { Wire } from "./wire.js";

export type Level = "MUST" | "SHOULD";

export type Verdict =
  | { readonly status: "pass"; readonly reason?: string }
  | { readonly status: "fail"; readonly reason: string }
  | { readonly status: "skip"; readonly reason: string };

export const pass = (reason?: string): Verdict => (reason ? { status: "pass", reason } : { status: "pass" });
export const fail = (reason: string): Verdict => ({ status: "fail", reason });
export const skip = (reason: string): Verdict => ({ status: "skip", reason });

/** The messages the check sends: one that finishes, one that keeps working, one that asks for input. */
export interface MessageSpec {
  readonly text: string;
  readonly skill?: string | undefined;
}

export interface CheckOptions {
  readonly quick: MessageSpec;
  /** A message whose task keeps working for a while (cancel, subscribe, returnImmediately). */
  readonly slow?: MessageSpec | undefined;
  /** A message whose task pauses on INPUT_REQUIRED (multi-turn requirements). */
  readonly input?: MessageSpec | undefined;
  /** Deadline of one call, and of one stream. */
  readonly timeoutMs: number;
  /** How long after a terminal or interrupted frame the agent has to close a stream. */
  readonly graceMs: number;
  /** Verify the card's signatures against this JWKS. */
  readonly jwksUrl?: string | undefined;
  /** Sent with every request (credentials, `--header`). */
  readonly headers: Readonly<Record<string, string>>;
}

export interface CardContext {
  readonly card: AgentCard;
  /** The card exactly as served. */
  readonly cardJson: JsonObject;
  readonly cardHeaders: Headers;
  readonly options: CheckOptions;
}

export interface BindingContext {
  readonly binding: ProtocolBinding;
  readonly iface: AgentInterface;
  readonly card: AgentCard;
  readonly wire: Wire;
  readonly options: CheckOptions;
  /** Computes `key` once per binding: requirements share the task they create and the answers they read. */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

interface RequirementBase {
  /** Stable id, e.g. `STREAM-CLOSES`. */
  readonly id: string;
  /** Where the spec says it, e.g. `§3.1.2`. */
  readonly section: string;
  readonly level: Level;
  /** What must be true, in one line. */
  readonly title: string;
}

export interface CardRequirement extends RequirementBase {
  readonly scope: "card";
  run(ctx: CardContext): Verdict | Promise<Verdict>;
}

export interface BindingRequirement extends RequirementBase {
  readonly scope: "binding";
  /** Only these bindings (e.g. a JSON-RPC envelope rule); all three when absent. */
  readonly bindings?: readonly ProtocolBinding[];
  run(ctx: BindingContext): Promise<Verdict>;
}

export type Requirement = CardRequirement | BindingRequirement;
