/** Progress message factory (the reference's `ProgressMessage`). */
import { create, type JsonObject } from "@bufbuild/protobuf";
import { type ProgressMessage, ProgressMessageSchema } from "../../gen/novaos/v1/progress_pb.js";
import type { ProgressDataInit } from "./hitl-message.js";
import type { ProgressStatus } from "./vocabulary.js";

export interface ProgressMessageOptions {
  sessionId?: string;
  progress?: ProgressDataInit;
  metadata?: JsonObject;
}

export function progressMessage(
  status: ProgressStatus,
  message: string,
  options: ProgressMessageOptions = {},
): ProgressMessage {
  return create(ProgressMessageSchema, {
    status,
    message,
    sessionId: options.sessionId ?? "",
    progress: options.progress,
    metadata: options.metadata,
  });
}

export type { ProgressMessage };
