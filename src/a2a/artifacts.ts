/**
 * Applying artifact updates to a task (spec §4.2.2): an unseen artifact id is
 * added; a known one has its parts extended (`append`) or is replaced. The
 * input task is never mutated, so snapshots handed out earlier stay valid.
 */
import type { Artifact, Task, TaskArtifactUpdateEvent } from "../../gen/a2a_pb.js";

/** The artifact list after one update, as a new array (entries not touched are shared). */
export function applyArtifactUpdateToList(
  artifacts: readonly Artifact[],
  update: Pick<TaskArtifactUpdateEvent, "artifact" | "append">,
): Artifact[] {
  const incoming = update.artifact;
  if (!incoming) return [...artifacts];
  const index = artifacts.findIndex((a) => a.artifactId === incoming.artifactId);
  if (index < 0) return [...artifacts, incoming];
  const current = artifacts[index] as Artifact;
  const next: Artifact = update.append
    ? {
        ...current,
        parts: [...current.parts, ...incoming.parts],
        metadata: incoming.metadata ?? current.metadata,
        extensions: incoming.extensions.length > 0 ? incoming.extensions : current.extensions,
      }
    : incoming;
  const out = [...artifacts];
  out[index] = next;
  return out;
}

/** The task after one artifact update, as a new object. */
export function applyArtifactUpdate(task: Task, update: Pick<TaskArtifactUpdateEvent, "artifact" | "append">): Task {
  return { ...task, artifacts: applyArtifactUpdateToList(task.artifacts, update) };
}
