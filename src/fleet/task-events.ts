/**
 * The events of a task as other replicas read them: each save of a task run
 * in fleet mode stores the frames it carries in `a2a_task_events`, keyed by
 * the version that save stored and their order in it, in the same statement
 * as the task row, and sends `NOTIFY a2a_task_events` when it commits. The
 * notification carries a pointer, never the event (`<digest>:<version>`, 45
 * bytes whatever the task), so PostgreSQL's 8,000-byte payload limit never
 * applies; a listener reads the rows after the version it holds.
 */
import * as crypto from "node:crypto";
import { type StreamResponse, StreamResponseSchema } from "../../gen/a2a_pb.js";
import { decodeMessage, encodeMessageText } from "../a2a/protojson.js";
import { CorruptRecordError } from "../server/store-errors.js";
import { scopedKey } from "../server/task-store.js";
import { type PostgresPool, run, type Statement } from "./postgres-pool.js";

/** The channel every replica listens on. */
export const TASK_EVENTS_CHANNEL = "a2a_task_events";

/** One-shot hashing where Node has it (20.12 and later; a namespace import, so older ones load too): half the cost. */
const md5Hex: (text: string) => string =
  typeof crypto.hash === "function"
    ? (text) => crypto.hash("md5", text)
    : (text) => crypto.createHash("md5").update(text).digest("hex");

/** The fixed-size name of a task in a notification: the md5 of its scoped key, in hex. */
export function taskDigest(taskId: string, scope: string): string {
  return md5Hex(scopedKey(taskId, scope));
}

/**
 * What a notification points at: a task (by digest) and the version just
 * stored, or 0 and the run that took the task's lease (`<digest>:0:<run id>`).
 */
export function parseNotification(
  payload: string | undefined,
): { digest: string; version: number; runId?: string } | undefined {
  const [digest, version, runId] = (payload ?? "").split(":");
  if (!digest || version === undefined) return undefined;
  return runId === undefined ? { digest, version: Number(version) } : { digest, version: Number(version), runId };
}

/** Reads the events of a task stored after `version`, in order. */
export const READ_EVENTS: Statement = {
  name: "a2a_read_task_events",
  text: `SELECT version, ordinal, event FROM a2a_task_events WHERE scope = $1 AND task_id = $2 AND version > $3::bigint
ORDER BY version, ordinal`,
};

/** Events older than the retention (milliseconds, $1): nobody catching up needs them any more. */
export const PRUNE_EVENTS: Statement = {
  name: "a2a_prune_task_events",
  text: "DELETE FROM a2a_task_events WHERE created_at < now() - $1::bigint * interval '1 millisecond'",
};

export function encodeEvent(frame: StreamResponse): string {
  return encodeMessageText(StreamResponseSchema, frame);
}

/** The events of `taskId` stored after `version` and the last version read (`version` when none). */
export async function readEvents(
  pool: PostgresPool,
  taskId: string,
  scope: string,
  version: number,
): Promise<{ frames: StreamResponse[]; version: number }> {
  const rows = await run(pool, READ_EVENTS, [scope, taskId, version]);
  const frames: StreamResponse[] = [];
  let last = version;
  for (const row of rows) {
    last = Number(row.version);
    try {
      frames.push(decodeMessage(StreamResponseSchema, JSON.parse(row.event as string), { validateRequired: false }));
    } catch (error) {
      throw new CorruptRecordError(
        taskId,
        `Stored event ${row.ordinal} of task ${taskId} version ${row.version} cannot be read: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  return { frames, version: last };
}
