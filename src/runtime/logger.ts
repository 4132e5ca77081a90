/**
 * Structured JSON logging for agents (pino). One line per call on stdout, in
 * the shape the platform's log pipeline (Loki, the Agent Log Panel) filters
 * on: `timestamp` (UTC, microseconds), lowercase `level`, `message`, the
 * execution's `run_id` / `agent_id` / `tenant_id` when known, and the fields
 * of a logged object at the top level (`logger.info({ tool }, "message")`).
 * See docs/wire.md.
 *
 * A PII masker (by default `maskPii` / `maskPiiInObject`) runs over every
 * message and logged value before the line is written, Errors included
 * (message, stack, cause, own fields), so a skill that logs what a user typed,
 * or an error quoting it, does not leak it. Bound ids (`run_id`, …) are left
 * alone: the pipeline filters on them. A value the masker cannot handle
 * never reaches the line, and logging never throws.
 *
 * The one import from security/: pii.ts imports nothing, and a logger that
 * masks only when its caller remembers to ask is how logs leak.
 */
import { type DestinationStream, type Level, type LogFn, type Logger, pino } from "pino";
import { maskPii, maskPiiInObject } from "../security/pii.js";
import { prettyDestination } from "./pretty-log.js";
import { processEnv } from "./process-env.js";

export type { Logger };

/** Masks personal data in log output (src/security/pii.ts provides one). */
export interface PiiMasker {
  maskText(text: string): string;
  maskObject<T>(value: T): T;
}

export interface CreateLoggerOptions {
  /** Minimum level; default `info`, or `LOG_LEVEL` from the environment. */
  level?: Level | "silent";
  /** Where lines go; default stdout. */
  destination?: DestinationStream;
  /**
   * `json` (the platform's line, the default) or `pretty` (for a person at a
   * terminal, see pretty-log.ts). Default: `NOVAOS_LOG_FORMAT`, else `json`.
   */
  format?: "json" | "pretty";
  /** Applied to every message and logged value. Default: the SDK's PII masker; `false` writes lines as given. */
  mask?: PiiMasker | false;
}

/** `maskPii` and `maskPiiInObject`: what every logger applies unless told otherwise. */
const PII_MASKER: PiiMasker = { maskText: maskPii, maskObject: maskPiiInObject };

/** The execution fields a line is bound to. Empty values are left out. */
export interface AgentLogFields {
  runId?: string;
  agentId?: string;
  tenantId?: string;
  taskId?: string;
  contextId?: string;
}

/** Wire names of the bound fields (the log pipeline queries `run_id`). */
const FIELD_NAMES: Readonly<Record<keyof AgentLogFields, string>> = {
  runId: "run_id",
  agentId: "agent_id",
  tenantId: "tenant_id",
  taskId: "task_id",
  contextId: "context_id",
};

/** `2026-07-25T14:00:00.123456Z`: six fractional digits, as the pipeline expects. */
function timestamp(): string {
  const now = performance.timeOrigin + performance.now();
  const whole = Math.floor(now);
  const micros = String(Math.floor((now - whole) * 1000)).padStart(3, "0");
  return `,"timestamp":"${new Date(whole).toISOString().slice(0, -1)}${micros}Z"`;
}

/** What is written instead of a line whose arguments could not be masked. */
const UNMASKABLE = "[log line withheld: its content could not be masked]";

/**
 * Masks every message and logged value (an Error becomes a masked Error of
 * the same class, which pino serializes as before) before pino formats the
 * line. If masking fails, the line says so instead of carrying the content.
 */
function maskingHook(mask: PiiMasker) {
  return function (this: Logger, args: Parameters<LogFn>, method: LogFn): void {
    let masked: unknown[];
    try {
      masked = (args as unknown[]).map((a) =>
        typeof a === "string" ? mask.maskText(a) : typeof a === "object" && a !== null ? mask.maskObject(a) : a,
      );
    } catch {
      masked = [UNMASKABLE];
    }
    method.apply(this, masked as Parameters<LogFn>);
  };
}

/** A root logger with the platform's line format. */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const env = processEnv();
  const level = options.level ?? (env.LOG_LEVEL as Level | undefined) ?? "info";
  const pretty = (options.format ?? env.NOVAOS_LOG_FORMAT) === "pretty";
  const mask = options.mask ?? PII_MASKER;
  const config = {
    level,
    base: null,
    messageKey: "message",
    timestamp,
    formatters: { level: (label: string) => ({ level: label }) },
    ...(mask ? { hooks: { logMethod: maskingHook(mask) } } : {}),
  };
  const destination =
    pretty && options.destination
      ? prettyDestination((text) => options.destination?.write(text))
      : pretty
        ? prettyDestination((text) => process.stdout.write(text))
        : options.destination;
  return destination ? pino(config, destination) : pino(config);
}

let defaultRoot: Logger | undefined;

/** The process-wide root logger (stdout, `info`, PII masked), created on first use. */
export function defaultLogger(): Logger {
  defaultRoot ??= createLogger();
  return defaultRoot;
}

/**
 * A logger bound to one execution's ids, for code outside a skill (startup,
 * background work); inside a skill use `ctx.logger`, which is this.
 */
export function getAgentLogger(fields: AgentLogFields, parent: Logger = defaultLogger()): Logger {
  const bindings: Record<string, string> = {};
  for (const [key, name] of Object.entries(FIELD_NAMES) as [keyof AgentLogFields, string][]) {
    const value = fields[key];
    if (value) bindings[name] = value;
  }
  return parent.child(bindings);
}
