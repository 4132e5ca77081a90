/**
 * Artifact revisions, the NovaOS way: an artifact keeps its `artifactId` from
 * one version to the next and counts its revisions in `metadata` under
 * `ARTIFACT_REVISION_KEY`. A2A's Artifact has a closed field list and no
 * version field (a revision is a later chunk with the same id, §3.2.5), so
 * the counter rides in `metadata`, the spec's extension point, where a peer
 * that knows nothing of it reads the artifact unchanged. The key is written
 * only past the first revision, so an artifact nobody revised carries nothing
 * it did not ask for.
 */
import { clone, type JsonObject } from "@bufbuild/protobuf";
import { type Artifact, ArtifactSchema, type Part } from "../../gen/a2a_pb.js";

/** The `Artifact.metadata` key holding the revision number. */
export const ARTIFACT_REVISION_KEY = "novaosRevision";

/** The revision of an artifact that carries none: its first version. */
export const DEFAULT_ARTIFACT_REVISION = 1;

/**
 * The artifact's revision: its metadata entry when that is a whole number
 * past {@link DEFAULT_ARTIFACT_REVISION}, else the default. Read from the
 * wire, so nothing here throws: a value that cannot be a revision (a string,
 * a boolean, a fraction) reads as the default.
 */
export function artifactRevision(artifact: Pick<Artifact, "metadata">): number {
  const value = artifact.metadata?.[ARTIFACT_REVISION_KEY];
  return typeof value === "number" && Number.isSafeInteger(value) && value > DEFAULT_ARTIFACT_REVISION
    ? value
    : DEFAULT_ARTIFACT_REVISION;
}

/** `metadata` with the revision written in, or taken out at the default (undefined when nothing is left). */
function metadataAt(metadata: JsonObject | undefined, revision: number): JsonObject | undefined {
  const { [ARTIFACT_REVISION_KEY]: _previous, ...rest } = metadata ?? {};
  const next: JsonObject = revision > DEFAULT_ARTIFACT_REVISION ? { ...rest, [ARTIFACT_REVISION_KEY]: revision } : rest;
  return Object.keys(next).length > 0 ? next : undefined;
}

/**
 * A copy of `artifact` at `revision` (a whole number ≥ 1; RangeError
 * otherwise). The input is not touched.
 */
export function withArtifactRevision(artifact: Artifact, revision: number): Artifact {
  if (!Number.isSafeInteger(revision) || revision < DEFAULT_ARTIFACT_REVISION) {
    throw new RangeError(`An artifact revision is a whole number ≥ ${DEFAULT_ARTIFACT_REVISION}, got ${revision}`);
  }
  const copy = clone(ArtifactSchema, artifact);
  copy.metadata = metadataAt(artifact.metadata, revision);
  return copy;
}

/**
 * The next revision of `artifact`: the same `artifactId`, `name`,
 * `description` and `extensions`, the revision one higher, and `parts` as its
 * content — replacing the old content, or with `append` added to it (the
 * distinction `TaskArtifactUpdateEvent.append` draws between a whole update
 * and a chunk). The input is not touched.
 */
export function revisedArtifact(
  artifact: Artifact,
  parts: readonly Part[],
  options: { append?: boolean } = {},
): Artifact {
  const next = withArtifactRevision(artifact, artifactRevision(artifact) + 1);
  next.parts = options.append ? [...next.parts, ...parts] : [...parts];
  return next;
}
