/**
 * What SendMessage answered: a Task (the common case) or a bare Message (an
 * agent that replied without creating a task, §3.1.1). The two guards narrow
 * `Task | Message` without reaching for the schemas.
 */
import { isMessage as isMessageOf } from "@bufbuild/protobuf";
import { type Message, MessageSchema, type Task, TaskSchema } from "../../gen/a2a_pb.js";

export function isTask(value: unknown): value is Task {
  return isMessageOf(value, TaskSchema);
}

export function isMessage(value: unknown): value is Message {
  return isMessageOf(value, MessageSchema);
}
