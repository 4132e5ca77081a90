/**
 * `HeartbeatClient`: scheduled ("heartbeat") runs of an agent instance on
 * agent-ops (openapi/heartbeat.yaml). A config wires a Temporal Schedule that
 * runs the agent's task on a cron cadence, with a required daily budget.
 *
 *   await using heartbeats = new HeartbeatClient({ auth: new BearerTokenAuth(iamToken) }); // NOVAOS_AGENT_OPS_URL
 *   const created = await heartbeats.createConfig(agentId, instanceId, {
 *     cronExpression: "0 * * * *", agentImage: "registry.example/agents/digest", agentImageTag: "1.4.0",
 *     taskContent: "Post the hourly digest", budget: { maxDailyRuns: 24, maxDailyTokens: 200_000, maxDailyCostUsd: 5 },
 *   });
 *
 * It takes a NovaOS IAM token (not a service-account header), and neither
 * obtains nor refreshes it. One cron config per instance: a second create is
 * a NovaOSServerError with `statusCode` 409. Every call is retried after a
 * transient failure: a retried create that had succeeded answers that same
 * 409, and pausing a paused config (resuming an active one) changes nothing.
 */
import type { components, paths } from "../../gen/openapi/heartbeat.js";
import { NovaOSValidationError } from "../errors/novaos-errors.js";
import { invalid, text } from "../http/argument-checks.js";
import {
  arrayField,
  isRecord,
  type JsonRecord,
  numberField,
  objectAnswer,
  optionalString,
  stringField,
} from "../http/json-fields.js";
import { platformHttpError } from "../http/platform-http-error.js";
import { ServiceClient } from "../http/service-client.js";
import type { JsonCall, ServiceCallOptions, ServiceClientOptions } from "../http/service-connection.js";

/** The environment variable naming agent-ops. */
export const NOVAOS_AGENT_OPS_URL_ENV = "NOVAOS_AGENT_OPS_URL";
export const DEFAULT_HEARTBEAT_TIMEZONE = "UTC";

const SERVICE = { name: "agent-ops", urlVariable: NOVAOS_AGENT_OPS_URL_ENV } as const;
const DECISIONS: ReadonlySet<number> = new Set([404, 409]);
const CONFIGS = "/api/v1/agent-ops/agents/{agentId}/instances/{instanceId}/heartbeat-configs";
const PAUSE = `${CONFIGS}/{configId}/pause` as const;
const RESUME = `${CONFIGS}/{configId}/resume` as const;

// The spec's grammars (openapi/heartbeat.yaml): five cron fields, an IANA zone name, OCI image names and tags.
const CRON = /^\s*[0-9A-Za-z*,/-]+(?:\s+[0-9A-Za-z*,/-]+){4}\s*$/;
const TIME_ZONE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;
const IMAGE = /^[a-z0-9][a-z0-9._:/-]*[a-z0-9]$/;
const IMAGE_TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** Daily caps on the scheduled runs. Every cap is required: there is no unlimited default. */
export interface HeartbeatBudget {
  maxDailyRuns: number;
  maxDailyTokens: number;
  maxDailyCostUsd: number;
}

/** The budget as the service writes it. */
export type HeartbeatBudgetJson = components["schemas"]["HeartbeatBudget"];

export interface CreateHeartbeatConfig extends ServiceCallOptions {
  /** Five fields (minute hour day-of-month month day-of-week), e.g. `0 * * * *`; no seconds, no `@` macros. */
  cronExpression: string;
  /** An IANA time zone name. Default `UTC`. */
  timezone?: string | undefined;
  /** The OCI repository to run on each fire, without tag or digest. */
  agentImage: string;
  agentImageTag: string;
  /** The message the agent gets on each fire. */
  taskContent: string;
  /** Required: `HeartbeatBudget`, or the service's snake_case form. */
  budget: HeartbeatBudget | HeartbeatBudgetJson;
}

export interface HeartbeatConfigCreated {
  configId: string;
  instanceId: string;
  /** `active` or `paused`. */
  status: string;
  temporalScheduleId: string;
}

export interface HeartbeatConfigStatus {
  configId: string;
  instanceId: string;
  status: string;
}

export interface HeartbeatTrigger {
  type: string;
  cronExpression: string;
  timezone: string;
}

export interface HeartbeatSchedule {
  scheduleId: string;
  temporalScheduleId: string;
  status: string;
  cronExpression: string | undefined;
  timezone: string;
  nextRunAt: string | undefined;
  lastRunAt: string | undefined;
}

export interface HeartbeatConfig {
  configId: string;
  instanceId: string;
  status: string;
  triggers: HeartbeatTrigger[];
  budget: HeartbeatBudget | undefined;
  schedules: HeartbeatSchedule[];
}

/** Whether `name` is a time zone this runtime knows (IANA names; `UTC`). */
function isTimeZone(name: string): boolean {
  if (!TIME_ZONE.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function matching(value: unknown, pattern: RegExp, field: string, what: string): string {
  if (typeof value !== "string" || !pattern.test(value)) throw invalid(field, `must be ${what}`);
  return value;
}

function budgetJson(budget: unknown): HeartbeatBudgetJson {
  if (!isRecord(budget)) {
    throw new NovaOSValidationError("budget is required: daily caps on runs, tokens and cost", { field: "budget" });
  }
  const cap = (camel: string, snake: string, whole: boolean): number => {
    const value = budget[camel] ?? budget[snake];
    if (typeof value !== "number" || !(value >= 0) || !Number.isFinite(value) || (whole && !Number.isInteger(value))) {
      throw invalid(`budget.${camel}`, `must be a${whole ? " whole" : ""} number ≥ 0 (every cap is required)`);
    }
    return value;
  };
  return {
    max_daily_runs: cap("maxDailyRuns", "max_daily_runs", true),
    max_daily_tokens: cap("maxDailyTokens", "max_daily_tokens", true),
    max_daily_cost_usd: cap("maxDailyCostUsd", "max_daily_cost_usd", false),
  };
}

function budget(value: unknown): HeartbeatBudget | undefined {
  if (!isRecord(value)) return undefined;
  return {
    maxDailyRuns: numberField(value.max_daily_runs),
    maxDailyTokens: numberField(value.max_daily_tokens),
    maxDailyCostUsd: numberField(value.max_daily_cost_usd),
  };
}

function configStatus(json: JsonRecord): HeartbeatConfigStatus {
  return {
    configId: stringField(json.config_id),
    instanceId: stringField(json.instance_id),
    status: stringField(json.status),
  };
}

function heartbeatConfig(value: unknown): HeartbeatConfig | undefined {
  if (!isRecord(value)) return undefined;
  return {
    ...configStatus(value),
    triggers: arrayField(value.triggers, (t) =>
      isRecord(t)
        ? {
            type: stringField(t.type),
            cronExpression: stringField(t.cron_expression),
            timezone: stringField(t.timezone, DEFAULT_HEARTBEAT_TIMEZONE),
          }
        : undefined,
    ),
    budget: budget(value.budget),
    schedules: arrayField(value.schedules, (s) =>
      isRecord(s)
        ? {
            scheduleId: stringField(s.schedule_id),
            temporalScheduleId: stringField(s.temporal_schedule_id),
            status: stringField(s.status),
            cronExpression: optionalString(s.cron_expression),
            timezone: stringField(s.timezone, DEFAULT_HEARTBEAT_TIMEZONE),
            nextRunAt: optionalString(s.next_run_at),
            lastRunAt: optionalString(s.last_run_at),
          }
        : undefined,
    ),
  };
}

export class HeartbeatClient extends ServiceClient<paths> {
  constructor(options: ServiceClientOptions = {}) {
    super(SERVICE, options);
  }

  /** Schedules heartbeats for an instance (one config per instance: a second is 409). */
  async createConfig(
    agentId: string,
    instanceId: string,
    options: CreateHeartbeatConfig,
  ): Promise<HeartbeatConfigCreated> {
    const path = { agentId: text(agentId, "agentId"), instanceId: text(instanceId, "instanceId") };
    const timezone = options.timezone ?? DEFAULT_HEARTBEAT_TIMEZONE;
    if (!isTimeZone(timezone)) {
      throw invalid("timezone", `must be an IANA time zone name, got ${JSON.stringify(timezone)}`);
    }
    const body: components["schemas"]["HeartbeatConfigCreate"] = {
      cron_expression: matching(options.cronExpression, CRON, "cronExpression", "a five-field cron expression"),
      timezone,
      agent_image: matching(options.agentImage, IMAGE, "agentImage", "an OCI repository name without tag"),
      agent_image_tag: matching(options.agentImageTag, IMAGE_TAG, "agentImageTag", "an OCI tag"),
      task_content: text(options.taskContent, "taskContent", { maxChars: 100_000 }),
      budget: budgetJson(options.budget),
    };
    const json = await this.#call("POST", CONFIGS, options, (signal, headers) =>
      this.connection.api.POST(CONFIGS, { params: { path }, body, headers, signal, parseAs: "stream" }),
    );
    return { ...configStatus(json), temporalScheduleId: stringField(json.temporal_schedule_id) };
  }

  /** The instance's heartbeat configs: none or one. */
  async listConfigs(agentId: string, instanceId: string, options: ServiceCallOptions = {}): Promise<HeartbeatConfig[]> {
    const path = { agentId: text(agentId, "agentId"), instanceId: text(instanceId, "instanceId") };
    const json = await this.#call("GET", CONFIGS, options, (signal, headers) =>
      this.connection.api.GET(CONFIGS, { params: { path }, headers, signal, parseAs: "stream" }),
    );
    return arrayField(json.configs, heartbeatConfig);
  }

  /** Pauses the config's schedules (a paused config stays paused). */
  async pauseConfig(
    agentId: string,
    instanceId: string,
    configId: string,
    options: ServiceCallOptions = {},
  ): Promise<HeartbeatConfigStatus> {
    return this.#transition(PAUSE, agentId, instanceId, configId, options);
  }

  /** Resumes the config's schedules (an active config stays active). */
  async resumeConfig(
    agentId: string,
    instanceId: string,
    configId: string,
    options: ServiceCallOptions = {},
  ): Promise<HeartbeatConfigStatus> {
    return this.#transition(RESUME, agentId, instanceId, configId, options);
  }

  async #transition(
    route: typeof PAUSE | typeof RESUME,
    agentId: string,
    instanceId: string,
    configId: string,
    options: ServiceCallOptions,
  ): Promise<HeartbeatConfigStatus> {
    const path = {
      agentId: text(agentId, "agentId"),
      instanceId: text(instanceId, "instanceId"),
      configId: text(configId, "configId"),
    };
    const json = await this.#call("POST", route, options, (signal, headers) =>
      this.connection.api.POST(route, { params: { path }, headers, signal, parseAs: "stream" }),
    );
    return configStatus(json);
  }

  async #call(method: string, route: string, options: ServiceCallOptions, send: JsonCall["send"]): Promise<JsonRecord> {
    const operation = `${SERVICE.name} ${method} ${route}`;
    const { body } = await this.connection.json(
      {
        method,
        route,
        idempotent: true,
        send,
        error: (response, error) => platformHttpError(response, error, { operation, decisions: DECISIONS }),
      },
      options,
    );
    return objectAnswer(body, operation);
  }
}
