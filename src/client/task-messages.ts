/**
 * The NovaOS messages a task carries, read for the caller: HITL requests,
 * errors and progress reports travel as tagged data parts in the task's
 * artifacts and in its status message (src/messages reads them). A task is
 * waiting on a person when it is INPUT_REQUIRED and its HITL messages ask for
 * action; those are its pending input requests.
 */

import { type Task, TaskState } from "../../gen/a2a_pb.js";
import type { ErrorMessage } from "../../gen/novaos/v1/error_message_pb.js";
import type { HitlMessage, HitlResponse } from "../../gen/novaos/v1/hitl_pb.js";
import type { ProgressMessage } from "../../gen/novaos/v1/progress_pb.js";
import {
  extractErrorMessage,
  extractHitlMessage,
  extractHitlResponse,
  extractProgressMessage,
} from "../messages/message-parser.js";

/** What can hold a NovaOS payload: the task's artifacts, then its status message. */
function carriers(task: Task): unknown[] {
  return task.status?.message ? [...task.artifacts, task.status.message] : [...task.artifacts];
}

function collect<T>(task: Task, read: (carrier: unknown) => T | undefined): T[] {
  return carriers(task)
    .map(read)
    .filter((value): value is T => value !== undefined);
}

/** Every HITL message in the task's artifacts and status message, in that order. */
export function extractHitlMessages(task: Task): HitlMessage[] {
  return collect(task, extractHitlMessage);
}

export function extractErrorMessages(task: Task): ErrorMessage[] {
  return collect(task, extractErrorMessage);
}

export function extractProgressMessages(task: Task): ProgressMessage[] {
  return collect(task, extractProgressMessage);
}

/** The NovaOS messages of a task, grouped by kind; every list is present, empty when none was found. */
export interface StandardizedMessages {
  hitl: HitlMessage[];
  error: ErrorMessage[];
  progress: ProgressMessage[];
  hitlResponse: HitlResponse[];
}

/**
 * Every HITL message, error, progress report and HITL response in the task's
 * artifacts and status message, grouped by kind, each list in that order.
 * (Pauses, skill errors and tool events: `extractAll` on a carrier.)
 */
export function extractStandardizedMessages(task: Task): StandardizedMessages {
  return {
    hitl: extractHitlMessages(task),
    error: extractErrorMessages(task),
    progress: extractProgressMessages(task),
    hitlResponse: collect(task, extractHitlResponse),
  };
}

/**
 * The HITL messages the task is waiting on: none unless the task is
 * INPUT_REQUIRED, else those that require user action (answer them with
 * `client.sendHitlResponse`, naming the task).
 */
export function pendingInputRequests(task: Task): HitlMessage[] {
  if (task.status?.state !== TaskState.INPUT_REQUIRED) return [];
  return extractHitlMessages(task).filter((hitl) => hitl.requiresUserAction !== false);
}

/** The session (A2A contextId) a HITL message belongs to, if it names one. */
export function extractSessionId(hitl: HitlMessage): string | undefined {
  return hitl.sessionId || undefined;
}
