import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { type Message, type Task, TaskSchema, TaskState } from "../../gen/a2a_pb.js";
import {
  extractErrorMessages,
  extractHitlMessages,
  extractProgressMessages,
  extractSessionId,
  extractStandardizedMessages,
  pendingInputRequests,
} from "../../src/client/task-messages.js";
import {
  createErrorMessage,
  createHitlMessage,
  createMessageWithHitlResponse,
  createProgressMessage,
} from "../../src/messages/message-builder.js";
import { ErrorType, HitlType, ProgressStatus } from "../../src/messages/vocabulary.js";

function taskWith(state: TaskState, status: Message | undefined, artifacts: Message[] = []): Task {
  return create(TaskSchema, {
    id: "t1",
    status: { state, message: status },
    artifacts: artifacts.map((m, i) => ({ artifactId: `a${i}`, parts: m.parts })),
  });
}

const ask = createHitlMessage("Proceed?", HitlType.PLAN_CONFIRMATION, { sessionId: "s1" });
const info = createHitlMessage("FYI", HitlType.INFO, { sessionId: "s1" });

describe("task messages", () => {
  it("reads HITL, error and progress messages from artifacts, then the status message", () => {
    const error = createErrorMessage("boom", ErrorType.VALIDATION_ERROR);
    const progress = createProgressMessage("half", ProgressStatus.IN_PROGRESS, { currentStep: 1, totalSteps: 2 });
    const task = taskWith(TaskState.INPUT_REQUIRED, ask, [info, error, progress]);
    expect(extractHitlMessages(task).map((h) => h.content)).toEqual(["FYI", "Proceed?"]);
    expect(extractErrorMessages(task).map((e) => e.message)).toEqual(["boom"]);
    expect(extractProgressMessages(task)).toHaveLength(1);
    expect(extractHitlMessages(taskWith(TaskState.WORKING, undefined))).toEqual([]);
  });

  it("pending input requests: only on an INPUT_REQUIRED task, only those asking for action", () => {
    expect(pendingInputRequests(taskWith(TaskState.INPUT_REQUIRED, ask, [info])).map((h) => h.content)).toEqual([
      "Proceed?",
    ]);
    expect(pendingInputRequests(taskWith(TaskState.COMPLETED, ask))).toEqual([]);
  });

  it("the session id of a HITL message is its contextId", () => {
    const [hitl] = extractHitlMessages(taskWith(TaskState.INPUT_REQUIRED, ask));
    expect(hitl && extractSessionId(hitl)).toBe("s1");
    const [anonymous] = extractHitlMessages(
      taskWith(TaskState.INPUT_REQUIRED, createHitlMessage("?", HitlType.INPUT_REQUEST)),
    );
    expect(anonymous && extractSessionId(anonymous)).toBeUndefined();
  });
});

describe("extractStandardizedMessages", () => {
  it("groups every NovaOS message of the task by kind, every list present", () => {
    const error = createErrorMessage("boom", ErrorType.VALIDATION_ERROR);
    const progress = createProgressMessage("half", ProgressStatus.IN_PROGRESS, { percentage: 50 });
    const answer = createMessageWithHitlResponse("yes", "confirm", "s1");
    const grouped = extractStandardizedMessages(
      taskWith(TaskState.INPUT_REQUIRED, ask, [info, error, progress, answer]),
    );
    expect(Object.keys(grouped).sort()).toEqual(["error", "hitl", "hitlResponse", "progress"]);
    expect(grouped.hitl.map((h) => h.content)).toEqual(["FYI", "Proceed?"]);
    expect(grouped.error.map((e) => e.message)).toEqual(["boom"]);
    expect(grouped.progress.map((p) => p.progress?.percentage)).toEqual([50]);
    expect(grouped.hitlResponse.map((r) => r.actionId)).toEqual(["confirm"]);
    expect(extractStandardizedMessages(taskWith(TaskState.WORKING, undefined))).toEqual({
      hitl: [],
      error: [],
      progress: [],
      hitlResponse: [],
    });
  });
});
