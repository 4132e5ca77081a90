import { describe, expect, it } from "vitest";
import { NovaOSServerError, NovaOSValidationError } from "../../src/errors/novaos-errors.js";
import { GatewayClient, ObservabilityClient, type RunEvent } from "../../src/platform/index.js";
import { bookingAgent, platform, serve } from "./support.js";

/** Starts a `booking-agent` run and returns once it waits for the user. */
async function pausedRun() {
  const local = await platform();
  const agent = await serve(bookingAgent());
  const { instanceId } = await local.registerAgent({ url: agent.url });
  const gateway = new GatewayClient({ baseUrl: local.urls.gateway });
  const { runId } = await gateway.execute({ instanceId, inputText: "Rome" });
  for await (const event of gateway.events(runId)) if (event.status === "WAITING_USER") break;
  const observability = new ObservabilityClient({ baseUrl: local.urls.observability });
  return { local, instanceId, gateway, runId, observability };
}

async function all(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const seen: RunEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe("the local Observability service lists the events of the gateway's runs", () => {
  it("on both routes, with the service route's limit and cursor, and new events as the run goes on", async () => {
    const { local, instanceId, gateway, runId, observability } = await pausedRun();

    const paused = await all(observability.runEvents(runId, { route: "service" }));
    expect(paused.map((event) => event.type)).toContain("hitl");
    expect(paused.map((event) => event.type)).not.toContain("done");
    expect(paused.find((event) => event.type === "hitl")?.data).toMatchObject({
      message: "Book Rome? Answer yes or no.",
    });

    await gateway.execute({ instanceId, inputText: "yes", threadId: runId });
    for await (const event of gateway.events(runId, { lastEventId: String(paused.length) })) void event;

    const service = await all(observability.runEvents(runId, { route: "service" }));
    const user = await all(observability.runEvents(runId, { route: "user" }));
    expect(service.slice(0, paused.length)).toEqual(paused);
    expect(service.at(-1)).toMatchObject({ type: "done", data: { output: "Booked." } });
    expect(service.map((event) => event.sequence)).toEqual(service.map((_, i) => i + 1));
    expect(service.map((event) => event.eventId)).toEqual(service.map((_, i) => String(i + 1)));
    expect(user.map(({ type, data, sequence, timestamp }) => ({ type, data, sequence, timestamp }))).toEqual(
      service.map(({ type, data, sequence, timestamp }) => ({ type, data, sequence, timestamp })),
    );

    // The service route honours `limit`: pages of two, chained by `next_cursor`, the last one null.
    const first = await observability.getRunEvents(runId, { route: "service", limit: 2 });
    expect(first.events.map((event) => event.sequence)).toEqual([1, 2]);
    const second = await observability.getRunEvents(runId, { route: "service", limit: 2, after: first.nextCursor });
    expect(second.events.map((event) => event.sequence)).toEqual([3, 4]);
    const rest = await observability.getRunEvents(runId, { route: "service", after: second.nextCursor });
    expect(rest.events.at(-1)?.type).toBe("done");
    expect(rest.nextCursor).toBeUndefined();
    // The user route's cursor is the sequence: after the last one, an empty page.
    expect((await observability.getRunEvents(runId, { route: "user", after: String(user.length) })).events).toEqual([]);

    const beyond = await observability
      .getRunEvents(runId, { route: "service", after: String(service.length + 1) })
      .catch((error: unknown) => error);
    expect(beyond).toBeInstanceOf(NovaOSValidationError);

    const unknown = await observability.getRunEvents("no-such-run", { route: "user" }).catch((error: unknown) => error);
    expect((unknown as NovaOSServerError).statusCode).toBe(404);
    const otherTenant = new ObservabilityClient({
      baseUrl: local.urls.observability,
      headers: { "X-Tenant-ID": "globex" },
    });
    const hidden = await otherTenant.getRunEvents(runId, { route: "service" }).catch((error: unknown) => error);
    expect((hidden as NovaOSServerError).statusCode).toBe(404);
    expect(local.violations).toEqual([]);
    await Promise.all([observability.close(), otherTenant.close(), gateway.close()]);
  });

  it("debug control pauses, steps and resumes a live run's session, and abort ends the run", async () => {
    const { local, gateway, runId, observability } = await pausedRun();

    const notPaused = await observability.sendDebugControl(runId, "step").catch((error: unknown) => error);
    expect(notPaused).toBeInstanceOf(NovaOSServerError);
    expect((notPaused as NovaOSServerError).statusCode).toBe(409);
    const pause = await observability.sendDebugControl(runId, "pause", { metadata: { by: "test" } });
    expect(pause).toMatchObject({ runId, breakpointState: "paused", action: "pause" });
    expect(await observability.sendDebugControl(runId, "step")).toMatchObject({ breakpointState: "paused" });
    expect(await observability.sendDebugControl(runId, "resume")).toMatchObject({
      sessionId: pause.sessionId,
      breakpointState: "running",
    });
    expect(await observability.sendDebugControl(runId, "abort")).toMatchObject({ breakpointState: "aborted" });

    expect((await gateway.getServiceRun(runId)).status).toBe("CANCELLED");
    const events = await all(observability.runEvents(runId, { route: "user" }));
    expect(events.filter((event) => event.type === "debug").map((event) => event.data.action)).toEqual([
      "pause",
      "step",
      "resume",
      "abort",
    ]);
    expect(events.at(-1)).toMatchObject({ type: "status", data: { status: "CANCELLED" } });
    const ended = await observability.sendDebugControl(runId, "pause").catch((error: unknown) => error);
    expect((ended as NovaOSServerError).statusCode).toBe(404);
    expect(local.violations).toEqual([]);
    await Promise.all([observability.close(), gateway.close()]);
  });
});
