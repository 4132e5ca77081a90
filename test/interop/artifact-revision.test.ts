/**
 * Artifact revisions between peers: an `@a2a-js/sdk` client, which knows
 * nothing of the NovaOS revision key, reads a revised artifact from our
 * AgentBuilder as an ordinary artifact (the key is plain metadata); and an
 * artifact from an `@a2a-js/sdk` agent, which never writes the key, reads as
 * the first revision.
 */
import { Role as JsRole, type Task as JsTask, type StreamResponse } from "@a2a-js/sdk";
import { ClientFactory, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArtifactSchema, type Task } from "../../gen/a2a_pb.js";
import { artifactText, textPart } from "../../src/a2a/index.js";
import { Client } from "../../src/client/client.js";
import { artifactRevision, revisedArtifact } from "../../src/messages/artifact-revision.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { type A2AJsAgent, startA2AJsAgent } from "../client/support/a2a-js-agent.js";
import { type RunningServer, serveAgent } from "../server/support/agent-server.js";

let ours: RunningServer;
let theirs: A2AJsAgent;

beforeAll(async () => {
  const agent = new AgentBuilder({ name: "reviser", logger: createLogger({ level: "silent" }) });
  agent.skill("draft", async (ctx) => {
    const first = create(ArtifactSchema, { artifactId: "report", name: "Report", parts: [textPart("first draft")] });
    await ctx.taskUpdater.addArtifact(first.parts, first);
    const second = revisedArtifact(first, [textPart("second draft")]);
    await ctx.taskUpdater.addArtifact(second.parts, second);
    return { status: "COMPLETED" };
  });
  ours = await serveAgent(agent);
  theirs = await startA2AJsAgent();
});

afterAll(async () => {
  await ours.close();
  await theirs.close();
});

const jsRequest = (text: string) => ({
  tenant: "",
  message: {
    messageId: crypto.randomUUID(),
    role: JsRole.ROLE_USER,
    parts: [{ content: { $case: "text" as const, value: text }, metadata: undefined, filename: "", mediaType: "" }],
    contextId: "",
    taskId: "",
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  },
  configuration: undefined,
  metadata: undefined,
});

describe("artifact revisions across peers", () => {
  it("an @a2a-js/sdk client reads our revised artifact as a plain artifact, key and all", async () => {
    const client = await new ClientFactory({ transports: [new JsonRpcTransportFactory()] }).createFromUrl(ours.url);
    const task = (await client.sendMessage(jsRequest("go"))) as JsTask;
    expect(task.artifacts).toHaveLength(1);
    const [artifact] = task.artifacts;
    expect(artifact?.artifactId).toBe("report");
    expect(artifact?.name).toBe("Report");
    const part = artifact?.parts[0]?.content;
    expect(part?.$case === "text" && part.value).toBe("second draft");
    expect(artifact?.metadata).toEqual({ novaosRevision: 2 });

    const updates: StreamResponse[] = [];
    for await (const frame of client.sendMessageStream(jsRequest("go"))) updates.push(frame);
    const chunks = updates.flatMap((f) => (f.payload?.$case === "artifactUpdate" ? [f.payload.value] : []));
    expect(chunks.map((c) => [c.artifact?.artifactId, c.append, c.artifact?.metadata])).toEqual([
      ["report", false, undefined],
      ["report", false, { novaosRevision: 2 }],
    ]);
  });

  it("our Client reads the revision back, and an @a2a-js/sdk agent's artifact as the first revision", async () => {
    await using own = new Client({ baseUrl: ours.url });
    const revised = (await own.sendMessage("go", { skillId: "draft" })) as Task;
    expect(artifactRevision(revised.artifacts[0] as Task["artifacts"][number])).toBe(2);

    await using foreign = new Client({ baseUrl: theirs.jsonRpcUrl });
    const plain = (await foreign.sendMessage("task")) as Task;
    const [artifact] = plain.artifacts;
    expect(artifact && artifactText(artifact)).not.toBe("");
    expect(artifact && artifactRevision(artifact)).toBe(1);
  });
});
