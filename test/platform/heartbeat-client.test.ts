import { describe, expect, it } from "vitest";
import { NovaOSServerError, NovaOSValidationError } from "../../src/errors/novaos-errors.js";
import { MissingServiceUrlError } from "../../src/http/service-url.js";
import { type CreateHeartbeatConfig, HeartbeatClient } from "../../src/platform/heartbeat-client.js";
import { rejection } from "../discovery/support.js";
import { ManualClock } from "../runtime/manual-clock.js";
import { startRawServer } from "./raw-server.js";
import { serviceClientHarness } from "./service-client-harness.js";

const TOKEN = "iam-token";
const AT = "2026-07-25T14:00:00Z";
const AGENT = "agent-1";
const INSTANCE = "inst-1";

const start = serviceClientHarness("heartbeat.yaml", TOKEN, (options) => new HeartbeatClient(options));

const CREATE: CreateHeartbeatConfig = {
  cronExpression: "0 * * * *",
  agentImage: "registry.example/agents/digest",
  agentImageTag: "1.4.0",
  taskContent: "Post the hourly digest",
  budget: { maxDailyRuns: 24, maxDailyTokens: 200_000, maxDailyCostUsd: 5 },
};
const created = { config_id: "cfg-1", instance_id: INSTANCE, status: "active", temporal_schedule_id: "ts-1" };

describe("HeartbeatClient (contract)", () => {
  it("creates, lists, pauses and resumes a config under /api/v1/agent-ops with the IAM token", async () => {
    const { server, client } = await start({
      createHeartbeatConfig: () => ({ status: 201, body: created }),
      listHeartbeatConfigs: () => ({
        status: 200,
        body: {
          configs: [
            {
              config_id: "cfg-1",
              instance_id: INSTANCE,
              status: "active",
              triggers: [{ type: "cron", cron_expression: "0 * * * *", timezone: "Europe/Berlin" }],
              budget: { max_daily_runs: 24, max_daily_tokens: 200000, max_daily_cost_usd: 5 },
              schedules: [
                {
                  schedule_id: "s-1",
                  temporal_schedule_id: "ts-1",
                  status: "active",
                  cron_expression: "0 * * * *",
                  timezone: "Europe/Berlin",
                  next_run_at: AT,
                  last_run_at: null,
                },
              ],
            },
          ],
        },
      }),
      pauseHeartbeatConfig: () => ({
        status: 200,
        body: { config_id: "cfg-1", instance_id: INSTANCE, status: "paused" },
      }),
      resumeHeartbeatConfig: () => ({
        status: 200,
        body: { config_id: "cfg-1", instance_id: INSTANCE, status: "active" },
      }),
    });
    expect(await client.createConfig(AGENT, INSTANCE, { ...CREATE, timezone: "Europe/Berlin" })).toEqual({
      configId: "cfg-1",
      instanceId: INSTANCE,
      status: "active",
      temporalScheduleId: "ts-1",
    });
    const [config] = await client.listConfigs(AGENT, INSTANCE);
    expect(config).toEqual({
      configId: "cfg-1",
      instanceId: INSTANCE,
      status: "active",
      triggers: [{ type: "cron", cronExpression: "0 * * * *", timezone: "Europe/Berlin" }],
      budget: { maxDailyRuns: 24, maxDailyTokens: 200000, maxDailyCostUsd: 5 },
      schedules: [
        {
          scheduleId: "s-1",
          temporalScheduleId: "ts-1",
          status: "active",
          cronExpression: "0 * * * *",
          timezone: "Europe/Berlin",
          nextRunAt: AT,
          lastRunAt: undefined,
        },
      ],
    });
    expect(await client.pauseConfig(AGENT, INSTANCE, "cfg-1")).toEqual({
      configId: "cfg-1",
      instanceId: INSTANCE,
      status: "paused",
    });
    expect((await client.resumeConfig(AGENT, INSTANCE, "cfg-1")).status).toBe("active");
    expect(server.violations).toEqual([]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/v1/agent-ops/agents/agent-1/instances/inst-1/heartbeat-configs",
      "GET /api/v1/agent-ops/agents/agent-1/instances/inst-1/heartbeat-configs",
      "POST /api/v1/agent-ops/agents/agent-1/instances/inst-1/heartbeat-configs/cfg-1/pause",
      "POST /api/v1/agent-ops/agents/agent-1/instances/inst-1/heartbeat-configs/cfg-1/resume",
    ]);
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(server.requests[0]?.body).toEqual({
      cron_expression: "0 * * * *",
      timezone: "Europe/Berlin",
      agent_image: "registry.example/agents/digest",
      agent_image_tag: "1.4.0",
      task_content: "Post the hourly digest",
      budget: { max_daily_runs: 24, max_daily_tokens: 200000, max_daily_cost_usd: 5 },
    });
  });

  it("sends UTC by default and takes the budget in the service's snake_case form too", async () => {
    const { server, client } = await start({ createHeartbeatConfig: () => ({ status: 201, body: created }) });
    await client.createConfig(AGENT, INSTANCE, {
      ...CREATE,
      budget: { max_daily_runs: 1, max_daily_tokens: 0, max_daily_cost_usd: 0.5 },
    });
    expect(server.requests[0]?.body).toMatchObject({
      timezone: "UTC",
      budget: { max_daily_runs: 1, max_daily_tokens: 0, max_daily_cost_usd: 0.5 },
    });
    expect(server.violations).toEqual([]);
  });

  it("surfaces a second config's 409 as NovaOSServerError(409), not retried", async () => {
    const clock = new ManualClock();
    const { server, client } = await start(
      { createHeartbeatConfig: () => ({ status: 409, body: { error: "config_exists", message: "one per instance" } }) },
      { resilience: { clock, timeoutMs: 0 } },
    );
    const error = await rejection(client.createConfig(AGENT, INSTANCE, CREATE));
    expect(error).toBeInstanceOf(NovaOSServerError);
    expect(error).toMatchObject({ statusCode: 409, isRetryable: false });
    expect((error as Error).message).toContain("one per instance");
    expect(server.requests).toHaveLength(1);
  });

  it("retries every operation on 503 and on a reset connection", async () => {
    const clock = new ManualClock();
    let failures = 0;
    const raw = await startRawServer((_req, res) => {
      failures++;
      if (failures % 3 === 1) res.writeHead(503, { "content-type": "application/json" }).end('{"error":"unavailable"}');
      else if (failures % 3 === 2) res.socket?.destroy();
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(created));
    });
    const heartbeats = new HeartbeatClient({
      baseUrl: raw.url,
      resilience: { clock, random: () => 0.5, timeoutMs: 0 },
    });
    try {
      for (const call of [
        () => heartbeats.createConfig(AGENT, INSTANCE, CREATE),
        () => heartbeats.pauseConfig(AGENT, INSTANCE, "cfg-1"),
        () => heartbeats.resumeConfig(AGENT, INSTANCE, "cfg-1"),
      ]) {
        const pending = call();
        clock.advance(await clock.nextSleep());
        clock.advance(await clock.nextSleep());
        expect((await pending).configId).toBe("cfg-1");
      }
      expect(raw.requests).toHaveLength(9);
    } finally {
      await heartbeats.close();
      await raw.close();
    }
  });

  it("requires a whole budget, an IANA time zone, five cron fields and image names, before any request", async () => {
    const { server, client } = await start({});
    const bad: [string, Partial<CreateHeartbeatConfig> & Record<string, unknown>][] = [
      ["no budget", { budget: undefined }],
      ["a partial budget", { budget: { maxDailyRuns: 1, maxDailyTokens: 1 } as never }],
      ["a negative cap", { budget: { maxDailyRuns: -1, maxDailyTokens: 1, maxDailyCostUsd: 1 } }],
      ["fractional runs", { budget: { maxDailyRuns: 1.5, maxDailyTokens: 1, maxDailyCostUsd: 1 } }],
      ["an unknown zone", { timezone: "Mars/Olympus_Mons" }],
      ["an offset, not a zone", { timezone: "+01:00" }],
      ["six cron fields", { cronExpression: "0 0 * * * *" }],
      ["a cron macro", { cronExpression: "@hourly" }],
      ["a tagged image", { agentImage: "Registry.example/Agent" }],
      ["an empty task", { taskContent: "" }],
    ];
    for (const [label, change] of bad) {
      const error = await rejection(
        client.createConfig(AGENT, INSTANCE, { ...CREATE, ...change } as CreateHeartbeatConfig),
      );
      expect(error, label).toBeInstanceOf(NovaOSValidationError);
    }
    expect(server.requests).toEqual([]);
  });

  it("reads NOVAOS_AGENT_OPS_URL, and names it when unset", () => {
    expect(() => new HeartbeatClient({ env: {} })).toThrow(/NOVAOS_AGENT_OPS_URL/);
    expect(() => new HeartbeatClient({ env: {} })).toThrow(MissingServiceUrlError);
    const fromEnv = new HeartbeatClient({ env: { NOVAOS_AGENT_OPS_URL: "http://agent-ops:8080" } });
    expect(fromEnv.baseUrl).toBe("http://agent-ops:8080");
    void fromEnv.close();
  });
});
