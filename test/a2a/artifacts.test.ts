import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { ArtifactSchema, TaskSchema, TaskState } from "../../gen/a2a_pb.js";
import { applyArtifactUpdate } from "../../src/a2a/artifacts.js";

const text = (value: string) => ({ content: { case: "text" as const, value } });

describe("applyArtifactUpdate", () => {
  const task = create(TaskSchema, {
    id: "t",
    status: { state: TaskState.WORKING },
    artifacts: [{ artifactId: "a", name: "first", parts: [text("one")] }],
  });
  const frozen = structuredClone(task);

  it("appends parts to a known artifact without mutating the input", () => {
    const next = applyArtifactUpdate(task, {
      append: true,
      artifact: create(ArtifactSchema, { artifactId: "a", parts: [text("two")] }),
    });
    expect(next.artifacts[0]?.parts.map((p) => p.content.value)).toEqual(["one", "two"]);
    expect(next.artifacts[0]?.name).toBe("first");
    expect(task).toEqual(frozen);
  });

  it("replaces a known artifact when not appending", () => {
    const next = applyArtifactUpdate(task, {
      append: false,
      artifact: create(ArtifactSchema, { artifactId: "a", parts: [text("new")] }),
    });
    expect(next.artifacts).toHaveLength(1);
    expect(next.artifacts[0]?.parts.map((p) => p.content.value)).toEqual(["new"]);
    expect(task).toEqual(frozen);
  });

  it("adds an unseen artifact at the end", () => {
    const next = applyArtifactUpdate(task, {
      append: true,
      artifact: create(ArtifactSchema, { artifactId: "b", parts: [text("b")] }),
    });
    expect(next.artifacts.map((a) => a.artifactId)).toEqual(["a", "b"]);
    expect(task).toEqual(frozen);
  });
});
