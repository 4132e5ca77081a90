import { describe, expect, it } from "vitest";
import type { LocalPlatform } from "../../src/local-platform/index.js";
import { createWriteConfirmationRequiredMessage } from "../../src/messages/index.js";
import { WriteConfirmationRequiredError } from "../../src/tools/index.js";
import { platform, serve } from "./support.js";
import { outputOf, runThroughGateway, toolAgent } from "./tools-support.js";

/**
 * `announcer`: sends a notification on every turn; when the gateway holds it
 * for confirmation, pauses the run for it (bound to the refused call). Once
 * a send goes through, it sends once more to see a confirmation spent.
 */
async function announcer(local: LocalPlatform) {
  const refusals: { callId: string; toolName: string; writeClass: boolean }[] = [];
  const agent = toolAgent(local, "announcer");
  agent.skill("announce", { description: "Announces a release" }, async (ctx) => {
    const send = () => ctx.tools.notify.send({ channel: "slack", to: ["#releases"], body: "v2 is out" });
    try {
      const sent = await send();
      const again = await send().then(
        () => "sent",
        (error: unknown) => (error as Error).name,
      );
      const hinted = ctx.mcpWriteHitlActive;
      return { output: JSON.stringify({ status: sent.status, recipients: sent.recipients, again, hinted }) };
    } catch (error) {
      if (!(error instanceof WriteConfirmationRequiredError)) throw error;
      refusals.push({
        callId: error.callId,
        toolName: error.toolName,
        writeClass: ctx.tools.hitl.requiresWriteHitl(error.toolName),
      });
      const pause = createWriteConfirmationRequiredMessage("Send to #releases?", error.callId, error.toolName);
      await ctx.taskUpdater.requiresInput(pause);
      return { status: "WAITING_USER" };
    }
  });
  const server = await serve(agent);
  return { refusals, instance: await local.registerAgent({ url: server.url }) };
}

describe("the local MCP Gateway's write confirmation (human in the loop for writes)", () => {
  it("refuses a write-class call -32042 until the user approves the pause through the gateway; one approval lets one call through", async () => {
    const local = await platform();
    const { refusals, instance } = await announcer(local);

    const events = await runThroughGateway(local, instance.instanceId, "announce", ["no", "yes"]);

    // Refused on the first turn, again after "no", let through after "yes", refused again for a second send.
    expect(refusals).toHaveLength(2);
    expect(refusals.every((r) => r.toolName === "novaos.notify.send" && r.writeClass)).toBe(true);
    expect(new Set(refusals.map((r) => r.callId)).size).toBe(2);
    const pauses = events.filter((event) => event.type === "hitl");
    expect(pauses.map((p) => (p.payload as { data?: unknown }).data)).toEqual(
      refusals.map((r) => ({ write_confirmation_required: { call_id: r.callId, tool_name: r.toolName } })),
    );
    expect(outputOf(events)).toEqual({
      status: "sent",
      recipients: 1,
      again: "WriteConfirmationRequiredError",
      hinted: true,
    });
    expect(local.notifications).toHaveLength(1);
    expect(local.notifications[0]).toMatchObject({ channel: "slack", to: ["#releases"], body: "v2 is out" });
    expect(local.violations).toEqual([]);
  });

  it("with confirmWrites off, a write-class call runs at once (and ctx.mcpWriteHitlActive says so)", async () => {
    const local = await platform({ confirmWrites: false });
    const { refusals, instance } = await announcer(local);
    const events = await runThroughGateway(local, instance.instanceId, "announce");
    expect(refusals).toEqual([]);
    expect(outputOf(events)).toEqual({ status: "sent", recipients: 1, again: "sent", hinted: false });
    expect(local.notifications).toHaveLength(2);
  });
});
