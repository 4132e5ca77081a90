/**
 * Watching a stream for NovaOS progress reports without taking it over: every
 * frame passes through unchanged, and each progress message a frame carries
 * is handed to a callback on the way. An agent may report progress in a
 * status update's message or in an artifact chunk; both are read.
 */
import type { StreamResponse } from "../../gen/a2a_pb.js";
import type { ProgressMessage } from "../../gen/novaos/v1/progress_pb.js";
import { extractProgressMessage } from "../messages/message-parser.js";

function progressOf(frame: StreamResponse): ProgressMessage | undefined {
  switch (frame.payload.case) {
    case "statusUpdate":
      return extractProgressMessage(frame.payload.value.status?.message);
    case "artifactUpdate":
      return extractProgressMessage(frame.payload.value.artifact);
    default:
      return undefined;
  }
}

/**
 * The frames of `stream`, unchanged and in order, calling `onProgress` with
 * each progress message found before the frame that carried it is yielded.
 * A callback that throws ends the iteration with its error.
 */
export async function* extractProgressFromStream(
  stream: AsyncIterable<StreamResponse>,
  onProgress?: (progress: ProgressMessage) => void,
): AsyncGenerator<StreamResponse, void, undefined> {
  for await (const frame of stream) {
    if (onProgress) {
      const progress = progressOf(frame);
      if (progress) onProgress(progress);
    }
    yield frame;
  }
}
