import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectRefused, type SpecExchange, startSpecExchange } from "./spec-exchange.js";

// openapi/heartbeat.yaml: create, list, pause, resume under /api/v1/agent-ops.

let spec: SpecExchange;
beforeAll(async () => {
  spec = await startSpecExchange("heartbeat.yaml", [
    "createHeartbeatConfig",
    "listHeartbeatConfigs",
    "pauseHeartbeatConfig",
    "resumeHeartbeatConfig",
  ]);
});
afterAll(() => spec.server.close());

const CONFIGS = "/api/v1/agent-ops/agents/joke/instances/i-1/heartbeat-configs";
const CREATE = {
  cron_expression: "0 * * * *",
  timezone: "America/Argentina/Buenos_Aires",
  agent_image: "us-docker.pkg.dev/novaos/agents/joke",
  agent_image_tag: "1.1.10",
  task_content: "Check in on any pending tasks.",
  budget: { max_daily_runs: 24, max_daily_tokens: 100_000, max_daily_cost_usd: 5 },
};

describe("openapi/heartbeat.yaml", () => {
  it("creates, lists, pauses and resumes a config", async () => {
    const created = { config_id: "c1", instance_id: "i-1", status: "active", temporal_schedule_id: "ts-1" };
    expect(await spec.send("POST", CONFIGS, { body: CREATE, answer: { status: 201, body: created } })).toEqual([]);
    const config = {
      config_id: "c1",
      instance_id: "i-1",
      status: "active",
      triggers: [{ type: "cron", cron_expression: "0 * * * *", timezone: "UTC" }],
      budget: CREATE.budget,
      schedules: [
        {
          schedule_id: "s1",
          temporal_schedule_id: "ts-1",
          status: "active",
          cron_expression: "0 * * * *",
          timezone: "UTC",
          next_run_at: "2026-07-25T15:00:00Z",
          last_run_at: null,
        },
      ],
    };
    expect(await spec.send("GET", CONFIGS, { answer: { status: 200, body: { configs: [config] } } })).toEqual([]);
    const paused = { config_id: "c1", instance_id: "i-1", status: "paused" };
    expect(await spec.send("POST", `${CONFIGS}/c1/pause`, { answer: { status: 200, body: paused } })).toEqual([]);
    expect(
      await spec.send("POST", `${CONFIGS}/c1/resume`, {
        answer: { status: 200, body: { ...paused, status: "active" } },
      }),
    ).toEqual([]);
    expect(
      await spec.send("POST", CONFIGS, { body: CREATE, answer: { status: 409, body: { error: "config_exists" } } }),
    ).toEqual([]);
  });

  it("refuses a create without a budget, with a partial budget, a six-field cron or a bad time zone", async () => {
    const { budget: _, ...noBudget } = CREATE;
    expectRefused(await spec.send("POST", CONFIGS, { body: noBudget }), "no budget");
    expectRefused(
      await spec.send("POST", CONFIGS, { body: { ...CREATE, budget: { max_daily_runs: 1 } } }),
      "partial budget",
    );
    expectRefused(
      await spec.send("POST", CONFIGS, { body: { ...CREATE, cron_expression: "0 0 * * * *" } }),
      "six fields",
    );
    expectRefused(await spec.send("POST", CONFIGS, { body: { ...CREATE, cron_expression: "@hourly" } }), "a macro");
    expectRefused(
      await spec.send("POST", CONFIGS, { body: { ...CREATE, timezone: "Mars Time" } }),
      "a zone with a space",
    );
    expectRefused(
      await spec.send("POST", CONFIGS, { body: { ...CREATE, agent_image: "joke:1.0 " } }),
      "an image with a space",
    );
  });

  it("answers configs as an object envelope with none or one entry", async () => {
    expect(await spec.send("GET", CONFIGS, { answer: { status: 200, body: { configs: [] } } })).toEqual([]);
    expect(await spec.send("GET", CONFIGS, { answer: { status: 200, body: [] } })).toHaveLength(1);
  });
});
