/**
 * The statements of run leases (`a2a_task_leases`): one row per task a skill
 * runs on, naming the replica and the run, until `expires_at` (the
 * database's clock, so replicas' clocks never matter). Taking a lease
 * replaces any other run's (a superseding message) and notifies the task's
 * followers with version 0 and the run's id, so the replica of the replaced
 * run stops it (and the run taking it knows the notification is its own).
 */
import type { Statement } from "./postgres-pool.js";

/**
 * Lease takes and releases within a batch of saves (task-sql.ts,
 * SAVE_TASKS_WITH_EVENTS), JSON arrays of objects: takes ($3) in key order,
 * each answering the digest and run to notify; releases ($4) of those runs'
 * leases only.
 */
export const LEASES_IN_BATCH = `takes AS (
  SELECT * FROM json_to_recordset($3::json)
    AS k(scope text, task_id text, replica_id text, run_id text, lease_ms bigint, digest text)
),
taken AS (
  INSERT INTO a2a_task_leases AS l (scope, task_id, replica_id, run_id, expires_at)
  SELECT scope, task_id, replica_id, run_id, now() + lease_ms * interval '1 millisecond' FROM takes
  ORDER BY scope, task_id
  ON CONFLICT (scope, task_id) DO UPDATE SET replica_id = excluded.replica_id, run_id = excluded.run_id,
    expires_at = excluded.expires_at
  RETURNING l.scope, l.task_id, l.run_id
),
released AS (
  DELETE FROM a2a_task_leases l USING json_to_recordset($4::json) AS r(scope text, task_id text, run_id text)
  WHERE l.scope = r.scope AND l.task_id = r.task_id AND l.run_id = r.run_id
)`;

/** ($1 scope, $2 task, $3 run): only that run's lease. */
export const RELEASE_LEASE: Statement = {
  name: "a2a_release_lease",
  text: "DELETE FROM a2a_task_leases WHERE scope = $1 AND task_id = $2 AND run_id = $3",
};

/** ($1 replica, $2 lease ms): every lease of the replica's runs. */
export const RENEW_LEASES: Statement = {
  name: "a2a_renew_leases",
  text: "UPDATE a2a_task_leases SET expires_at = now() + $2::bigint * interval '1 millisecond' WHERE replica_id = $1",
};

/**
 * Up to 100 expired leases, oldest first. Two replicas may read the same
 * one: the FAILED write that follows is version-checked, so one of them
 * writes it and the other finds the task terminal.
 */
export const EXPIRED_LEASES: Statement = {
  name: "a2a_expired_leases",
  text: `SELECT scope, task_id, replica_id, run_id FROM a2a_task_leases WHERE expires_at < now()
ORDER BY expires_at LIMIT 100`,
};

/** The task and the run holding its lease, if any ($1 scope, $2 task). */
export const TASK_AND_LEASE: Statement = {
  name: "a2a_task_and_lease",
  text: `SELECT t.owner, t.version, t.task, t.artifacts, l.run_id FROM a2a_tasks t
LEFT JOIN a2a_task_leases l ON l.scope = t.scope AND l.task_id = t.id WHERE t.scope = $1 AND t.id = $2`,
};
