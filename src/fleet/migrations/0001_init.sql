-- @novaos/client-sdk fleet stores, schema version 1.
-- Applied by migrate() in one transaction under an advisory lock; never edit a shipped migration, add one.
-- Keys and ids use the "C" collation: byte order is code-point order, the same for every database locale.

-- Tasks: one row per (scope, task id). The task itself is ProtoJSON (spec §5.5), without its artifacts,
-- which have their own column so a ListTasks page without artifacts (the default) does not read them.
-- The other columns are what ListTasks filters and orders by, copied from the task on every save.
CREATE TABLE a2a_tasks (
  scope        text COLLATE "C" NOT NULL,
  id           text COLLATE "C" NOT NULL,
  owner        text COLLATE "C" NOT NULL,
  context_id   text COLLATE "C" NOT NULL,
  state        smallint NOT NULL,            -- TaskState number
  -- The status timestamp, negated: "most recent first, then id ascending" is then one ascending key,
  -- so a page is one index range scan and its cursor one row comparison. Seconds and nanos are kept
  -- apart so every protobuf Timestamp (years 1 to 9999, nanosecond precision) is exact.
  sort_seconds bigint NOT NULL,
  sort_nanos   integer NOT NULL,
  version      bigint NOT NULL,              -- 1 on insert, +1 per save (optimistic concurrency)
  task         text NOT NULL,                -- ProtoJSON Task without artifacts
  artifacts    text NOT NULL,                -- ProtoJSON array of the task's artifacts
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, id)
);

-- The default ListTasks page (one owner's tasks) and its total.
CREATE INDEX a2a_tasks_by_owner ON a2a_tasks (scope, owner, sort_seconds, sort_nanos, id);
-- ListTasks of one context.
CREATE INDEX a2a_tasks_by_context ON a2a_tasks (scope, owner, context_id, sort_seconds, sort_nanos, id);

-- ListTasks totals without counting rows: the number of tasks per (scope, owner, state), kept by a trigger
-- in the transaction of every insert, delete and change of state, so a total read with a page is exact
-- and costs a few rows whatever the number of tasks. Each row is split in shards (by server process) so
-- concurrent saves in one scope do not queue on one counter row; a total is the sum of its shards.
-- (Totals of pages filtered by context or status time count the matching index entries instead.)
CREATE TABLE a2a_task_counts (
  scope        text COLLATE "C" NOT NULL,
  owner        text COLLATE "C" NOT NULL,
  state        smallint NOT NULL,
  shard        smallint NOT NULL,
  n            bigint NOT NULL,
  PRIMARY KEY (scope, owner, state, shard)
);

CREATE FUNCTION a2a_count_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  my_shard smallint := pg_backend_pid() % 8;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.scope = OLD.scope AND NEW.owner = OLD.owner AND NEW.state = OLD.state THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO a2a_task_counts AS c VALUES (OLD.scope, OLD.owner, OLD.state, my_shard, -1)
      ON CONFLICT (scope, owner, state, shard) DO UPDATE SET n = c.n - 1;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO a2a_task_counts AS c VALUES (NEW.scope, NEW.owner, NEW.state, my_shard, 1)
      ON CONFLICT (scope, owner, state, shard) DO UPDATE SET n = c.n + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER a2a_tasks_counted AFTER INSERT OR DELETE OR UPDATE OF scope, owner, state ON a2a_tasks
  FOR EACH ROW EXECUTE FUNCTION a2a_count_tasks();

-- Push-notification configs: one row per (scope, task id, config id); the config is ProtoJSON.
CREATE TABLE a2a_push_configs (
  scope        text COLLATE "C" NOT NULL,
  task_id      text COLLATE "C" NOT NULL,
  id           text COLLATE "C" NOT NULL,
  owner        text COLLATE "C" NOT NULL,
  config       text NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, task_id, id)
);

-- For tasks that span replicas (docs/fleet.md, "Planned"): created now so that step adds no migration
-- of existing rows.

-- Every event of a task, written in the same transaction as the save that produced it: `version` is
-- the task version that save stored and `ordinal` the event's place among that save's events, so a
-- subscriber holding a snapshot of version v catches up with the events after v, in order, no gaps.
-- A NOTIFY on channel a2a_task_events (payload: a digest of the task key and the version) tells
-- listeners to read them; the payload never carries the event, so its 8000-byte limit does not matter.
CREATE TABLE a2a_task_events (
  scope        text COLLATE "C" NOT NULL,
  task_id      text COLLATE "C" NOT NULL,
  version      bigint NOT NULL,
  ordinal      integer NOT NULL,
  event        text NOT NULL,                -- ProtoJSON StreamResponse
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, task_id, version, ordinal)
);
-- Pruning old events.
CREATE INDEX a2a_task_events_by_age ON a2a_task_events (created_at);

-- The replica running a task's skill, while it runs: it renews `expires_at`; once that has passed,
-- another replica may end the task (FAILED, with a reason). `run_id` names the execution, so a
-- superseding run on another replica can tell the old one to stop.
CREATE TABLE a2a_task_leases (
  scope        text COLLATE "C" NOT NULL,
  task_id      text COLLATE "C" NOT NULL,
  replica_id   text NOT NULL,
  run_id       text NOT NULL,
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (scope, task_id)
);
CREATE INDEX a2a_task_leases_by_expiry ON a2a_task_leases (expires_at);
