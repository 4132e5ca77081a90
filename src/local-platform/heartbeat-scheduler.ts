/**
 * The local platform's heartbeats: each config is a cron schedule (parsed
 * and stepped by croner, in the config's time zone) that, when active,
 * really fires a run of its instance through the Execution Gateway with the
 * config's `task_content`, on the platform's clock.
 *
 * The budget is checked at every firing, per day in the config's time zone:
 * a firing once the day's `max_daily_runs` runs have started does not start
 * a run; it is recorded as skipped with the reason, and the schedule's
 * `next_run_at` moves to the first cron time the budget allows (the next
 * day), so a reader of the config sees when it will fire again. The local
 * platform does not meter tokens or cost, so `max_daily_tokens` and
 * `max_daily_cost_usd` stop a schedule only when they are 0 (its
 * `next_run_at` is then null). One config per instance and tenant.
 *
 * Time is the injected `Clock` (its `now()` read as milliseconds since the
 * epoch, its `sleep` the timer), so a test on a manual clock fires a cron
 * schedule as often as it likes without waiting on wall time.
 */
import { randomUUID } from "node:crypto";
import { Cron } from "croner";
import type { components } from "../../gen/openapi/heartbeat.js";
import { type Clock, sleep } from "../runtime/clock.js";
import type { AgentRegistry } from "./agent-registry.js";
import type { GatewayService } from "./gateway-service.js";
import { PlatformReplyError } from "./spec-router.js";

type Schemas = components["schemas"];
type Status = Schemas["HeartbeatStatus"];

/** One firing of a heartbeat: the run it started, or why it started none. */
export interface HeartbeatFiring {
  readonly configId: string;
  readonly instanceId: string;
  /** The cron instant it fired at (ISO 8601). */
  readonly at: string;
  readonly runId?: string;
  /** Why no run started (the budget, an agent gone). */
  readonly skipped?: string;
}

/** The firings kept for `firings` (the oldest go first). */
export const MAX_KEPT_FIRINGS = 1000;
/** How many cron steps `next_run_at` looks ahead for one the budget allows (a minute cron's day). */
const LOOKAHEAD_STEPS = 1441;

interface Config {
  readonly id: string;
  readonly scheduleId: string;
  readonly tenant: string;
  readonly agentId: string;
  readonly instanceId: string;
  readonly create: Schemas["HeartbeatConfigCreate"];
  readonly cron: Cron;
  readonly day: Intl.DateTimeFormat;
  status: Status;
  /** Runs started, by budget day. */
  runs: { day: string; count: number };
  nextAt: number | undefined;
  lastAt: number | undefined;
  /** Aborts the wait for the next firing. */
  timer: AbortController | undefined;
}

export interface HeartbeatSchedulerOptions {
  readonly gateway: GatewayService;
  readonly registry: AgentRegistry;
  /** Read as epoch milliseconds. Default `wallClock`. */
  readonly clock?: Clock;
  /** Told of every firing (a run started or a skip). */
  readonly onFiring?: (firing: HeartbeatFiring) => void;
}

/** Wall time (`Date.now`) and the real timers: the heartbeats' clock unless a test gives another. */
export const wallClock: Clock = { now: () => Date.now(), sleep };

/** `setTimeout`'s largest delay: a later firing is waited for in steps. */
const MAX_SLEEP_MS = 2 ** 31 - 1;

const iso = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());

export class HeartbeatScheduler {
  readonly #options: HeartbeatSchedulerOptions;
  readonly #configs = new Map<string, Config>();
  readonly #firings: HeartbeatFiring[] = [];
  readonly #clock: Clock;

  constructor(options: HeartbeatSchedulerOptions) {
    this.#options = options;
    this.#clock = options.clock ?? wallClock;
  }

  /** The latest firings, oldest first. */
  get firings(): readonly HeartbeatFiring[] {
    return this.#firings;
  }

  /** The registered instance at `agentId`/`instanceId`, or a 404. */
  #instance(agentId: string, instanceId: string): void {
    const agent = this.#options.registry.byInstance(instanceId);
    if (!agent || agent.agentId !== agentId) {
      throw new PlatformReplyError(404, "not_found", `No instance ${instanceId} of agent ${agentId} is installed`);
    }
  }

  #ofInstance(tenant: string, agentId: string, instanceId: string): Config[] {
    this.#instance(agentId, instanceId);
    return [...this.#configs.values()].filter((c) => c.tenant === tenant && c.instanceId === instanceId);
  }

  create(
    tenant: string,
    agentId: string,
    instanceId: string,
    create: Schemas["HeartbeatConfigCreate"],
  ): Schemas["HeartbeatConfigCreated"] {
    if (this.#ofInstance(tenant, agentId, instanceId).length > 0) {
      throw new PlatformReplyError(409, "config_exists", `Instance ${instanceId} already has a heartbeat config`);
    }
    const timezone = create.timezone ?? "UTC";
    let cron: Cron;
    let day: Intl.DateTimeFormat;
    try {
      day = new Intl.DateTimeFormat("en-CA", { timeZone: timezone, year: "numeric", month: "2-digit", day: "2-digit" });
      cron = new Cron(create.cron_expression, { timezone });
      cron.nextRun(new Date(this.#clock.now()));
    } catch (error) {
      throw new PlatformReplyError(400, "invalid_request", error instanceof Error ? error.message : String(error));
    }
    const id = randomUUID();
    const config: Config = {
      id,
      scheduleId: `sched_${id}`,
      tenant,
      agentId,
      instanceId,
      create: { ...create, timezone },
      cron,
      day,
      status: "active",
      runs: { day: "", count: 0 },
      nextAt: undefined,
      lastAt: undefined,
      timer: undefined,
    };
    this.#configs.set(id, config);
    this.#arm(config);
    return { config_id: id, instance_id: instanceId, status: "active", temporal_schedule_id: config.scheduleId };
  }

  list(tenant: string, agentId: string, instanceId: string): Schemas["HeartbeatConfig"][] {
    return this.#ofInstance(tenant, agentId, instanceId).map((config) => {
      const { cron_expression, timezone = "UTC", budget } = config.create;
      return {
        config_id: config.id,
        instance_id: config.instanceId,
        status: config.status,
        triggers: [{ type: "cron", cron_expression, timezone }],
        budget,
        schedules: [
          {
            schedule_id: config.scheduleId,
            temporal_schedule_id: config.scheduleId,
            status: config.status,
            cron_expression,
            timezone,
            next_run_at: iso(this.#nextAllowed(config)),
            last_run_at: iso(config.lastAt),
          },
        ],
      };
    });
  }

  /** Pauses or resumes a config (already so: unchanged). */
  setStatus(
    tenant: string,
    agentId: string,
    instanceId: string,
    configId: string,
    status: Status,
  ): Schemas["HeartbeatConfigStatus"] {
    const config = this.#ofInstance(tenant, agentId, instanceId).find((c) => c.id === configId);
    if (!config) throw new PlatformReplyError(404, "not_found", `No heartbeat config ${configId}`);
    if (config.status !== status) {
      config.status = status;
      this.#arm(config);
    }
    return { config_id: config.id, instance_id: config.instanceId, status };
  }

  /** Stops every schedule (the platform closes). */
  stop(): void {
    for (const config of this.#configs.values()) config.timer?.abort();
  }

  /** Sets the timer for the config's next cron time after now (none while paused). */
  #arm(config: Config): void {
    config.timer?.abort();
    config.timer = undefined;
    config.nextAt = undefined;
    if (config.status !== "active") return;
    const next = config.cron.nextRun(new Date(this.#clock.now()));
    if (!next) return;
    const at = next.getTime();
    const timer = new AbortController();
    config.nextAt = at;
    config.timer = timer;
    void (async () => {
      while (this.#clock.now() < at)
        await this.#clock.sleep(Math.min(at - this.#clock.now(), MAX_SLEEP_MS), timer.signal);
      await this.#fire(config, at);
    })().catch(() => {
      // Aborted (paused, re-armed or stopped): `#fire` reports its own failures as skipped firings.
    });
  }

  /** Why a firing at `at` may not start a run, or undefined when the budget allows it. */
  #overBudget(config: Config, at: number): string | undefined {
    const { max_daily_runs, max_daily_tokens, max_daily_cost_usd } = config.create.budget;
    const day = config.day.format(at);
    const started = config.runs.day === day ? config.runs.count : 0;
    if (started >= max_daily_runs) return `budget exhausted: max_daily_runs ${max_daily_runs} reached on ${day}`;
    if (max_daily_tokens === 0) return "budget exhausted: max_daily_tokens is 0";
    if (max_daily_cost_usd === 0) return "budget exhausted: max_daily_cost_usd is 0";
    return undefined;
  }

  /** The next cron time the budget allows, looking a day of steps ahead; undefined when paused or never. */
  #nextAllowed(config: Config): number | undefined {
    let at = config.nextAt;
    for (let step = 0; at !== undefined && step < LOOKAHEAD_STEPS; step++) {
      if (this.#overBudget(config, at) === undefined) return at;
      at = config.cron.nextRun(new Date(at))?.getTime();
    }
    return undefined;
  }

  async #fire(config: Config, at: number): Promise<void> {
    this.#arm(config);
    const why = this.#overBudget(config, at);
    if (why !== undefined) {
      this.#record({ configId: config.id, instanceId: config.instanceId, at: iso(at) as string, skipped: why });
      return;
    }
    const day = config.day.format(at);
    config.runs = { day, count: (config.runs.day === day ? config.runs.count : 0) + 1 };
    config.lastAt = at;
    try {
      const { run } = await this.#options.gateway.execute(
        { instance_id: config.instanceId, input_text: config.create.task_content },
        config.tenant,
      );
      this.#record({ configId: config.id, instanceId: config.instanceId, at: iso(at) as string, runId: run.id });
    } catch (error) {
      const skipped = error instanceof Error ? error.message : String(error);
      this.#record({ configId: config.id, instanceId: config.instanceId, at: iso(at) as string, skipped });
    }
  }

  #record(firing: HeartbeatFiring): void {
    this.#firings.push(firing);
    if (this.#firings.length > MAX_KEPT_FIRINGS) this.#firings.shift();
    this.#options.onFiring?.(firing);
  }
}
