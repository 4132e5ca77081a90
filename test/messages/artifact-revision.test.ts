import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { ArtifactSchema } from "../../gen/a2a_pb.js";
import { artifactText, textPart } from "../../src/a2a/index.js";
import {
  ARTIFACT_REVISION_KEY,
  artifactRevision,
  DEFAULT_ARTIFACT_REVISION,
  revisedArtifact,
  withArtifactRevision,
} from "../../src/messages/index.js";

const draft = create(ArtifactSchema, {
  artifactId: "report",
  name: "Report",
  description: "The quarterly report",
  parts: [textPart("first draft")],
  metadata: { lang: "en" },
  extensions: ["urn:ext"],
});
const untouched = structuredClone(draft);

describe("artifact revisions", () => {
  it("pins the key and the default", () => {
    expect(ARTIFACT_REVISION_KEY).toBe("novaosRevision");
    expect(DEFAULT_ARTIFACT_REVISION).toBe(1);
  });

  it("reads an artifact nobody revised as the default, and writes nothing for it", () => {
    expect(artifactRevision(draft)).toBe(1);
    expect(toJson(ArtifactSchema, draft)).not.toHaveProperty(["metadata", ARTIFACT_REVISION_KEY]);
  });

  it("revises: same identity, one revision up, content replaced; the input is untouched", () => {
    const second = revisedArtifact(draft, [textPart("second draft")]);
    expect([second.artifactId, second.name, second.description, second.extensions]).toEqual([
      "report",
      "Report",
      "The quarterly report",
      ["urn:ext"],
    ]);
    expect(artifactRevision(second)).toBe(2);
    expect(artifactText(second)).toBe("second draft");
    expect(second.metadata).toEqual({ lang: "en", novaosRevision: 2 });
    expect(artifactRevision(revisedArtifact(second, [textPart("third")]))).toBe(3);
    expect(draft).toEqual(untouched);
  });

  it("appends when asked, as a streamed chunk does", () => {
    const longer = revisedArtifact(draft, [textPart(", continued")], { append: true });
    expect(artifactText(longer)).toBe("first draft, continued");
    expect(draft.parts).toHaveLength(1);
  });

  it("carries the revision in metadata on the wire, lifted back out when read", () => {
    const json = toJson(ArtifactSchema, revisedArtifact(draft, [textPart("v2")]));
    expect(Object.keys(json as object).sort()).toEqual([
      "artifactId",
      "description",
      "extensions",
      "metadata",
      "name",
      "parts",
    ]);
    expect(json).toMatchObject({ metadata: { lang: "en", novaosRevision: 2 } });
    expect(artifactRevision(fromJson(ArtifactSchema, json))).toBe(2);
  });

  it("takes the key out again at the default", () => {
    const back = withArtifactRevision(revisedArtifact(draft, [textPart("v2")]), 1);
    expect(back.metadata).toEqual({ lang: "en" });
    const bare = create(ArtifactSchema, { artifactId: "x", metadata: { [ARTIFACT_REVISION_KEY]: 4 } });
    expect(withArtifactRevision(bare, 1).metadata).toBeUndefined();
    expect(withArtifactRevision(bare, 7).metadata).toEqual({ novaosRevision: 7 });
  });

  it("reads what cannot be a revision as the default, and refuses to write one", () => {
    for (const value of ["3", true, 2.5, 0, -4, null, { n: 2 }]) {
      expect(artifactRevision({ metadata: { [ARTIFACT_REVISION_KEY]: value } })).toBe(1);
    }
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 60])
      expect(() => withArtifactRevision(draft, bad)).toThrow(RangeError);
  });
});
