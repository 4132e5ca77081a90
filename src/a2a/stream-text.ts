/**
 * Reading a stream as text, as it arrives: the words of each artifact chunk,
 * of a Message frame and of a Task frame's artifacts (the snapshot that opens
 * SubscribeToTask, or the one frame of a non-streaming fallback). Status
 * updates yield nothing: they report progress, and the final one repeats the
 * output. The stream's own rules still hold — a stream that ends before its
 * last frame throws — and frames are consumed, so read them once.
 */
import type { StreamResponse } from "../../gen/a2a_pb.js";
import { artifactText, messageText } from "./text.js";

function frameTexts(frame: StreamResponse): string[] {
  switch (frame.payload.case) {
    case "artifactUpdate":
      return frame.payload.value.artifact ? [artifactText(frame.payload.value.artifact)] : [];
    case "message":
      return [messageText(frame.payload.value)];
    case "task":
      return frame.payload.value.artifacts.map(artifactText);
    default:
      return [];
  }
}

/** The text of `frames` as it arrives: one string per artifact chunk, Message, or artifact of a Task frame. */
export async function* streamText(frames: AsyncIterable<StreamResponse>): AsyncGenerator<string, void, undefined> {
  for await (const frame of frames) {
    for (const text of frameTexts(frame)) if (text !== "") yield text;
  }
}
