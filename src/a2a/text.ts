/**
 * The text of a message, an artifact or a task, for callers that want the
 * words rather than the parts. Text parts are joined as they are, with no
 * separator, because a streamed artifact arrives as chunks of one text; other
 * parts (data, files) contribute nothing.
 */
import type { Artifact, Message, Part, Task } from "../../gen/a2a_pb.js";

function partsText(parts: readonly Part[]): string {
  let text = "";
  for (const part of parts) if (part.content.case === "text") text += part.content.value;
  return text;
}

/** Every text part of `message`, concatenated. */
export function messageText(message: Message): string {
  return partsText(message.parts);
}

/** Every text part of `artifact`, concatenated. */
export function artifactText(artifact: Artifact): string {
  return partsText(artifact.parts);
}

/**
 * What a task says: the text of its artifacts, those with text joined by a
 * newline, or, when they have none (a task that paused to ask, or failed),
 * the text of its status message. "" when it says nothing.
 */
export function taskText(task: Task): string {
  const artifacts = task.artifacts.map(artifactText).filter((text) => text !== "");
  if (artifacts.length > 0) return artifacts.join("\n");
  return task.status?.message ? messageText(task.status.message) : "";
}
