/**
 * The statements of the PostgreSQL task store, as text with `$n` parameters
 * (prepared once per connection under their name). A ListTasks page is one
 * statement: the total and the page in one round trip, the page an index
 * range scan of `a2a_tasks_by_owner` (or `_by_context`) from the cursor, never
 * an OFFSET.
 */
import { TaskState } from "../../gen/a2a_pb.js";
import type { TaskQuery } from "../server/task-store.js";
import type { Statement } from "./postgres-pool.js";
import { LEASES_IN_BATCH } from "./task-leases.js";

/** Inserts the task, or replaces the stored one if its version is $10; answers the new version, or no row. */
export const SAVE_TASK: Statement = {
  name: "a2a_save_task",
  text: `INSERT INTO a2a_tasks AS t (scope, id, owner, context_id, state, sort_seconds, sort_nanos, task, artifacts, version)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::bigint + 1)
ON CONFLICT (scope, id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
  sort_seconds = excluded.sort_seconds, sort_nanos = excluded.sort_nanos, task = excluded.task,
  artifacts = excluded.artifacts, version = excluded.version, updated_at = now()
WHERE t.version = $10::bigint
RETURNING version`,
};

/**
 * The saves of a batch (task-save-batches.ts): a JSON array ($1) of one
 * object per save, `n` its place among them. JSON because one text
 * parameter costs the driver far less than ten arrays of escaped elements.
 */
const SAVE_INPUT = `input AS (
  SELECT * FROM json_to_recordset($1::json) AS i(n integer, scope text, id text, owner text, context_id text,
    state smallint, sort_seconds bigint, sort_nanos integer, task text, artifacts text, expected bigint, digest text)
),
saved AS (
  INSERT INTO a2a_tasks AS t (scope, id, owner, context_id, state, sort_seconds, sort_nanos, task, artifacts, version)
  SELECT scope, id, owner, context_id, state, sort_seconds, sort_nanos, task, artifacts, expected + 1 FROM input
  ORDER BY scope, id
  ON CONFLICT (scope, id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
    sort_seconds = excluded.sort_seconds, sort_nanos = excluded.sort_nanos, task = excluded.task,
    artifacts = excluded.artifacts, version = excluded.version, updated_at = now()
  WHERE t.version = excluded.version - 1
  RETURNING t.scope, t.id, t.version
)`;

/**
 * SAVE_TASK for many tasks at once, each with its own version check (rows
 * are locked in key order, so two batches never wait on each other in a
 * cycle): answers the key and new version of each task stored; a task
 * without a row conflicted and nothing of it was written. The saves come as
 * one binary `text[]` per column (text-array.ts), the numbers in decimal;
 * $10 is the version each save writes (the one it replaces plus one). For
 * batches of saves alone: no events, no notification, no lease (S691).
 */
export const SAVE_TASKS: Statement = {
  name: "a2a_save_tasks_plain",
  text: `INSERT INTO a2a_tasks AS t (scope, id, owner, context_id, state, sort_seconds, sort_nanos, task, artifacts, version)
SELECT scope, id, owner, context_id, state::smallint, sort_seconds::bigint, sort_nanos::integer, task, artifacts,
  version::bigint
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
  $10::text[]) AS i(scope, id, owner, context_id, state, sort_seconds, sort_nanos, task, artifacts, version)
ORDER BY scope, id
ON CONFLICT (scope, id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
  sort_seconds = excluded.sort_seconds, sort_nanos = excluded.sort_nanos, task = excluded.task,
  artifacts = excluded.artifacts, version = excluded.version, updated_at = now()
WHERE t.version = excluded.version - 1
RETURNING t.scope, t.id, t.version`,
};

/**
 * SAVE_TASKS, and in the same statement each stored task's events ($2: the
 * save `n`'s event number `ordinal`) under the version it stored, one
 * notification per stored task that has a digest (`<digest>:<version>`),
 * sent when the batch commits, and the batch's lease takes (each with a
 * digest notifying `<digest>:0:<run id>`) and releases (task-leases.ts). A
 * conflicted task stores and sends nothing; rows with a null `n` are the
 * takes'.
 */
export const SAVE_TASKS_WITH_EVENTS: Statement = {
  name: "a2a_save_tasks_with_events",
  text: `WITH ${SAVE_INPUT},
${LEASES_IN_BATCH},
stored AS (
  SELECT i.n, s.scope, s.id, s.version, i.digest FROM saved s JOIN input i ON i.scope = s.scope AND i.id = s.id
),
recorded AS (
  INSERT INTO a2a_task_events (scope, task_id, version, ordinal, event)
  SELECT s.scope, s.id, s.version, e.ordinal, e.event
  FROM json_to_recordset($2::json) AS e(n integer, ordinal integer, event text) JOIN stored s ON s.n = e.n
)
SELECT n, version, CASE WHEN digest IS NOT NULL THEN pg_notify('a2a_task_events', digest || ':' || version::text) END
FROM stored
UNION ALL
SELECT NULL, NULL, pg_notify('a2a_task_events', k.digest || ':0:' || k.run_id)
FROM taken t JOIN takes k ON k.scope = t.scope AND k.task_id = t.task_id WHERE k.digest IS NOT NULL`,
};

export const GET_TASK: Statement = {
  name: "a2a_get_task",
  text: "SELECT owner, version, task, artifacts FROM a2a_tasks WHERE scope = $1 AND id = $2",
};

export const DELETE_TASK: Statement = {
  name: "a2a_delete_task",
  text: "DELETE FROM a2a_tasks WHERE scope = $1 AND id = $2",
};

/**
 * The ListTasks statement for the query's shape and its parameters. Rows:
 * `total` on every row (one row with a null `id` when the page is empty),
 * then the page plus one task, to tell whether more follow, with the sort
 * key of each row. The total comes from `a2a_task_counts` unless the query
 * filters by context or status time; then the matching index entries are
 * counted.
 */
export function listTasksStatement(scope: string, query: TaskQuery): { statement: Statement; values: unknown[] } {
  const values: unknown[] = [scope];
  const param = (value: unknown) => `$${values.push(value)}`;
  const filters = ["scope = $1"];
  const counted = ["scope = $1"];
  let shape = "";
  if (query.owner !== undefined) {
    const owner = param(query.owner);
    filters.push(`owner = ${owner}`);
    counted.push(`owner = ${owner}`);
    shape += "o";
  }
  if (query.status !== TaskState.UNSPECIFIED) {
    const state = param(query.status);
    filters.push(`state = ${state}`);
    counted.push(`state = ${state}`);
    shape += "s";
  }
  let countedByIndex = false;
  if (query.contextId) {
    filters.push(`context_id = ${param(query.contextId)}`);
    countedByIndex = true;
    shape += "c";
  }
  const since = query.statusTimestampAfter;
  if (since) {
    // At or after the instant: the negated time at or below its negation.
    filters.push(`(sort_seconds, sort_nanos) <= (${param((-since.seconds).toString())}, ${param(-since.nanos)})`);
    countedByIndex = true;
    shape += "t";
  }
  const where = filters.join(" AND ");
  let page = where;
  const after = query.after;
  if (after) {
    const t = after.statusTime;
    page += ` AND (sort_seconds, sort_nanos, id) > (${param((-t.seconds).toString())}, ${param(-t.nanos)}, ${param(after.taskId)})`;
    shape += "a";
  }
  const limit = param(query.pageSize + 1);
  const artifacts = query.includeArtifacts ? "artifacts" : "NULL::text";
  shape += query.includeArtifacts ? "_x" : "";
  const total = countedByIndex
    ? `SELECT count(*) AS total FROM a2a_tasks WHERE ${where}`
    : `SELECT coalesce(sum(n), 0)::bigint AS total FROM a2a_task_counts WHERE ${counted.join(" AND ")}`;
  const text = `SELECT c.total, p.id, p.owner, p.version, p.task, p.artifacts, p.sort_seconds, p.sort_nanos
FROM (${total}) c
LEFT JOIN LATERAL (
  SELECT id, owner, version, task, ${artifacts} AS artifacts, sort_seconds, sort_nanos FROM a2a_tasks
  WHERE ${page} ORDER BY sort_seconds, sort_nanos, id LIMIT ${limit}
) p ON true
ORDER BY p.sort_seconds, p.sort_nanos, p.id`;
  return { statement: { name: `a2a_list_tasks_${shape || "all"}`, text }, values };
}
