-- @novaos/client-sdk fleet stores, schema version 2.
-- Applied by migrate() in one transaction under an advisory lock; never edit a shipped migration, add one.

-- ListTasks totals (a2a_task_counts) kept once per statement instead of once per row. A batch of saves
-- (one statement for every save a replica asks for in one event-loop turn) that inserted n tasks ran the
-- row trigger n times, each an upsert of the same counter row: 15 % of an echo's cost at 32 connections.
-- A statement trigger reads the statement's transition tables and applies one change per (scope, owner,
-- state). PostgreSQL allows transition tables only on a trigger of one event, so there are three, sharing
-- one function. Counters stay split in shards by server process, as before.
DROP TRIGGER a2a_tasks_counted ON a2a_tasks;
DROP FUNCTION a2a_count_tasks();

CREATE FUNCTION a2a_count_task_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  my_shard smallint := pg_backend_pid() % 8;
BEGIN
  -- Each branch names only the transition tables its trigger declares (a branch is planned when it runs).
  -- Groups in key order, so two statements sharing a shard lock its counter rows in the same order.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO a2a_task_counts AS c
      SELECT scope, owner, state, my_shard, count(*) FROM new_rows
      GROUP BY scope, owner, state ORDER BY scope, owner, state
      ON CONFLICT (scope, owner, state, shard) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO a2a_task_counts AS c
      SELECT scope, owner, state, my_shard, -count(*) FROM old_rows
      GROUP BY scope, owner, state ORDER BY scope, owner, state
      ON CONFLICT (scope, owner, state, shard) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    -- Most updates keep the task's state: their +1 and -1 cancel and write nothing.
    INSERT INTO a2a_task_counts AS c
      SELECT scope, owner, state, my_shard, sum(d) FROM (
        SELECT scope, owner, state, 1 AS d FROM new_rows
        UNION ALL
        SELECT scope, owner, state, -1 FROM old_rows
      ) AS changes
      GROUP BY scope, owner, state HAVING sum(d) <> 0 ORDER BY scope, owner, state
      ON CONFLICT (scope, owner, state, shard) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER a2a_tasks_counted_inserts AFTER INSERT ON a2a_tasks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION a2a_count_task_changes();
CREATE TRIGGER a2a_tasks_counted_updates AFTER UPDATE ON a2a_tasks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION a2a_count_task_changes();
CREATE TRIGGER a2a_tasks_counted_deletes AFTER DELETE ON a2a_tasks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION a2a_count_task_changes();
