/**
 * Stream frames (`StreamResponse`, spec §3.2.3) and when a stream is over.
 * A stream ends on a frame whose task state is terminal or interrupted, or on
 * a Message (a message-only stream is exactly one Message, §3.1.2). Nothing
 * else ends it: an artifact update with `lastChunk` closes an artifact, not
 * the stream, and a stream that stops without a last frame is a failure.
 */
import type { StreamResponse, TaskState } from "../../gen/a2a_pb.js";
import { isInterruptedState, isTerminalState } from "./task-state.js";

/** The task state a frame reports, if it reports one. */
export function frameState(frame: StreamResponse): TaskState | undefined {
  switch (frame.payload.case) {
    case "task":
      return frame.payload.value.status?.state;
    case "statusUpdate":
      return frame.payload.value.status?.state;
    default:
      return undefined;
  }
}

/** The task a frame is about, if any. */
export function frameTaskId(frame: StreamResponse): string | undefined {
  switch (frame.payload.case) {
    case "task":
      return frame.payload.value.id;
    case "statusUpdate":
    case "artifactUpdate":
      return frame.payload.value.taskId;
    case "message":
      return frame.payload.value.taskId || undefined;
    default:
      return undefined;
  }
}

/** True for a frame after which the stream is complete. */
export function isLastFrame(frame: StreamResponse): boolean {
  if (frame.payload.case === "message") return true;
  const state = frameState(frame);
  return state !== undefined && (isTerminalState(state) || isInterruptedState(state));
}

/** True for a frame whose task reached a terminal state: the end of a subscription (spec §3.1.6). */
export function isTerminalFrame(frame: StreamResponse): boolean {
  if (frame.payload.case === "message") return true;
  const state = frameState(frame);
  return state !== undefined && isTerminalState(state);
}
