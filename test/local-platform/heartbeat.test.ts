import { afterEach, describe, expect, it } from "vitest";
import type { NovaOSServerError } from "../../src/errors/novaos-errors.js";
import { type HeartbeatFiring, type LocalPlatform, startLocalPlatform } from "../../src/local-platform/index.js";
import { GatewayClient, HeartbeatClient, type StreamEvent } from "../../src/platform/index.js";
import { ManualClock } from "../runtime/manual-clock.js";
import { researchAgent, serve } from "./support.js";

/** Firings as they are reported, awaited one by one. */
class Firings {
  readonly #seen: HeartbeatFiring[] = [];
  readonly #waiting: ((firing: HeartbeatFiring) => void)[] = [];

  readonly report = (firing: HeartbeatFiring) => {
    const waiter = this.#waiting.shift();
    if (waiter) waiter(firing);
    else this.#seen.push(firing);
  };

  next(): Promise<HeartbeatFiring> {
    const firing = this.#seen.shift();
    return firing ? Promise.resolve(firing) : new Promise((resolve) => this.#waiting.push(resolve));
  }
}

let started: LocalPlatform | undefined;
afterEach(async () => {
  await started?.close();
  started = undefined;
});

const START = Date.parse("2026-01-01T00:00:30.000Z");
const MINUTE = 60_000;

/** A platform on a manual clock at `START`, with `research-agent` registered and a Heartbeat client. */
async function heartbeatSetup() {
  const clock = new ManualClock();
  clock.advance(START);
  const firings = new Firings();
  const local = await startLocalPlatform({ clock, onViolation: () => {}, onHeartbeat: firings.report });
  started = local;
  const agent = await serve(researchAgent());
  const { agentId, instanceId } = await local.registerAgent({ url: agent.url });
  const heartbeats = new HeartbeatClient({ baseUrl: local.urls.heartbeat });
  return { clock, firings, local, agentId, instanceId, heartbeats };
}

describe("local heartbeats fire real runs on their cron, on an injected clock, within their budget", () => {
  it("a per-minute cron fires twice (two runs through the gateway) and its budget of two stops the third firing", async () => {
    const { clock, firings, local, agentId, instanceId, heartbeats } = await heartbeatSetup();
    const gateway = new GatewayClient({ baseUrl: local.urls.gateway });

    const created = await heartbeats.createConfig(agentId, instanceId, {
      cronExpression: "* * * * *",
      agentImage: "registry.local/agents/research",
      agentImageTag: "1.0.0",
      taskContent: "tides",
      budget: { maxDailyRuns: 2, maxDailyTokens: 100_000, maxDailyCostUsd: 1 },
    });
    expect(created.status).toBe("active");
    await clock.nextSleep();
    const [config] = await heartbeats.listConfigs(agentId, instanceId);
    expect(config?.schedules[0]).toMatchObject({ nextRunAt: "2026-01-01T00:01:00.000Z", lastRunAt: undefined });

    clock.advance(30_000);
    const first = await firings.next();
    await clock.nextSleep();
    clock.advance(MINUTE);
    const second = await firings.next();
    await clock.nextSleep();
    expect([first.at, second.at]).toEqual(["2026-01-01T00:01:00.000Z", "2026-01-01T00:02:00.000Z"]);

    for (const { runId } of [first, second]) {
      const events: StreamEvent[] = [];
      for await (const event of gateway.events(runId as string)) events.push(event);
      expect(events.at(-1)).toMatchObject({ type: "done", payload: { output: "About tides." } });
      expect((await gateway.getServiceRun(runId as string)).status).toBe("COMPLETED");
    }

    clock.advance(MINUTE);
    const third = await firings.next();
    expect(third).toMatchObject({ at: "2026-01-01T00:03:00.000Z", skipped: expect.stringMatching(/max_daily_runs 2/) });
    expect(third.runId).toBeUndefined();
    expect(local.runs.size).toBe(2);
    // The schedule says when the budget lets it fire again: the first minute of the next day.
    const [spent] = await heartbeats.listConfigs(agentId, instanceId);
    expect(spent?.schedules[0]).toMatchObject({
      lastRunAt: "2026-01-01T00:02:00.000Z",
      nextRunAt: "2026-01-02T00:00:00.000Z",
    });
    expect(local.violations).toEqual([]);
    await Promise.all([heartbeats.close(), gateway.close()]);
  });

  it("one config per instance; a paused config does not fire, and a resumed one fires at its cron time in its time zone", async () => {
    const { clock, firings, local, agentId, instanceId, heartbeats } = await heartbeatSetup();
    const create = {
      cronExpression: "0 0 * * *",
      timezone: "Europe/Berlin",
      agentImage: "registry.local/agents/research",
      agentImageTag: "1.0.0",
      taskContent: "tides",
      budget: { maxDailyRuns: 1, maxDailyTokens: 100_000, maxDailyCostUsd: 1 },
    };
    const { configId } = await heartbeats.createConfig(agentId, instanceId, create);
    const again = await heartbeats.createConfig(agentId, instanceId, create).catch((error: unknown) => error);
    expect((again as NovaOSServerError).statusCode).toBe(409);
    const unknown = await heartbeats.listConfigs(agentId, "no-such-instance").catch((error: unknown) => error);
    expect((unknown as NovaOSServerError).statusCode).toBe(404);
    await clock.nextSleep();

    expect(await heartbeats.pauseConfig(agentId, instanceId, configId)).toMatchObject({ status: "paused" });
    expect(await heartbeats.pauseConfig(agentId, instanceId, configId)).toMatchObject({ status: "paused" });
    expect(clock.pending).toBe(0);
    const [paused] = await heartbeats.listConfigs(agentId, instanceId);
    expect(paused).toMatchObject({ status: "paused", schedules: [{ status: "paused", nextRunAt: undefined }] });

    expect(await heartbeats.resumeConfig(agentId, instanceId, configId)).toMatchObject({ status: "active" });
    await clock.nextSleep();
    const [active] = await heartbeats.listConfigs(agentId, instanceId);
    // Midnight in Berlin is 23:00 UTC in winter.
    expect(active?.schedules[0]?.nextRunAt).toBe("2026-01-01T23:00:00.000Z");
    clock.advance(23 * 60 * MINUTE);
    const fired = await firings.next();
    expect(fired).toMatchObject({ at: "2026-01-01T23:00:00.000Z", configId });
    expect(local.runs.has(fired.runId as string)).toBe(true);
    expect(local.violations).toEqual([]);
    await heartbeats.close();
  });

  it("a budget with a zero cost cap never fires: the firing is skipped and next_run_at is null", async () => {
    const { clock, firings, local, agentId, instanceId, heartbeats } = await heartbeatSetup();
    await heartbeats.createConfig(agentId, instanceId, {
      cronExpression: "* * * * *",
      agentImage: "registry.local/agents/research",
      agentImageTag: "1.0.0",
      taskContent: "tides",
      budget: { maxDailyRuns: 10, maxDailyTokens: 100_000, maxDailyCostUsd: 0 },
    });
    await clock.nextSleep();
    const [config] = await heartbeats.listConfigs(agentId, instanceId);
    expect(config?.schedules[0]?.nextRunAt).toBeUndefined();
    clock.advance(30_000);
    expect(await firings.next()).toMatchObject({ skipped: "budget exhausted: max_daily_cost_usd is 0" });
    expect(local.runs.size).toBe(0);
    await heartbeats.close();
  });
});
