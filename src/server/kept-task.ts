/**
 * How the in-memory task store keeps a task: a settled one (terminal, or
 * interrupted for input or auth: no execution holds it any more) as its
 * ProtoJSON text, any other as the object it was given (decision S717).
 *
 * A settled task is what a store holds longest, and as objects (some 35 for
 * an echo task) it is what the young-generation collector copies, twice, on
 * its way to the old generation; as text it is one string. A save of a
 * settled task pays for the encoding and a read of one for the decoding. A
 * running task stays an object: the harness holds it anyway, and saves it on
 * every write. So does a large one (over `MAX_TEXT_BYTES`, as the store
 * estimates it): its encoding would hold the event loop in one piece, a
 * pause every other caller waits out (a task of 20,000 streamed parts took
 * 23–37 ms, one of 1,000,000 parts over a second).
 *
 * The text is the fleet's too (src/fleet/task-rows.ts): ProtoJSON through
 * the generated codecs.
 */
import { type Task, TaskSchema } from "../../gen/a2a_pb.js";
import { decodeMessage, encodeMessageText } from "../a2a/protojson.js";
import { isInterruptedState, isTerminalState } from "../a2a/task-state.js";

/** A task as the in-memory store keeps it: its text once settled, else the task itself. */
export type KeptTask = Task | string;

/** The estimated size (`task-bytes.ts`) above which a settled task stays an object. */
export const MAX_TEXT_BYTES = 16 * 1024;

/** `task` as the store keeps it; `bytes` is the store's estimate of its size. */
export function keepTask(task: Task, bytes: number): KeptTask {
  const state = task.status?.state;
  if (bytes > MAX_TEXT_BYTES || state === undefined || !(isTerminalState(state) || isInterruptedState(state))) {
    return task;
  }
  let text: string;
  try {
    text = encodeMessageText(TaskSchema, task);
  } catch {
    return task; // A value ProtoJSON cannot write (a skill's own): the object keeps it.
  }
  // The encoder's text is a chain of joined pieces, which would all stay alive with it. Reading a
  // character of a joined string makes V8 copy it into one piece, and the pieces become garbage.
  text.charCodeAt(0);
  // A lone surrogate, which JSON writes as an escape ("\udXXX"), does not decode: that task stays an object.
  return text.includes("\\ud") ? task : text;
}

/** The task kept: the object itself, or a new one decoded from its text. */
export function keptTaskOf(kept: KeptTask): Task {
  return typeof kept === "string" ? decodeMessage(TaskSchema, JSON.parse(kept), { validateRequired: false }) : kept;
}
