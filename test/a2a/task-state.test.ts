import { describe, expect, it } from "vitest";
import { TaskState } from "../../gen/a2a_pb.js";
import { isInterrupted, isInterruptedState, isTerminal, isTerminalState } from "../../src/a2a/task-state.js";

describe("task state classes", () => {
  it("splits the states into terminal, interrupted and live", () => {
    const all = Object.values(TaskState).filter((v): v is TaskState => typeof v === "number");
    expect(all.filter(isTerminalState)).toEqual([
      TaskState.COMPLETED,
      TaskState.FAILED,
      TaskState.CANCELED,
      TaskState.REJECTED,
    ]);
    expect(all.filter(isInterruptedState)).toEqual([TaskState.INPUT_REQUIRED, TaskState.AUTH_REQUIRED]);
  });

  it("reads a task's status; an interrupt is not terminal", () => {
    expect(isTerminal({ status: undefined })).toBe(false);
    expect(isTerminal({ status: { state: TaskState.INPUT_REQUIRED } as never })).toBe(false);
    expect(isInterrupted({ status: { state: TaskState.AUTH_REQUIRED } as never })).toBe(true);
  });
});
