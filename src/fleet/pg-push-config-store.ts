/**
 * A PushNotificationConfigStore on PostgreSQL (table `a2a_push_configs`):
 * configs as ProtoJSON, keyed by (scope, task id, config id), pages by config
 * id. A row that does not decode is a CorruptRecordError for `get` and is left
 * out of a listing (logged, the page topped up).
 */
import { type TaskPushNotificationConfig, TaskPushNotificationConfigSchema } from "../../gen/a2a_pb.js";
import { decodeMessage, encodeMessageText } from "../a2a/protojson.js";
import { defaultLogger, type Logger } from "../runtime/logger.js";
import type {
  PushConfigPage,
  PushConfigQuery,
  PushNotificationConfigStore,
  StoredPushConfig,
} from "../server/push-config-store.js";
import { CorruptRecordError } from "../server/store-errors.js";
import { fillPage } from "./fill-page.js";
import { type PostgresPool, type Row, run, type Statement } from "./postgres-pool.js";

export interface PgPushNotificationConfigStoreOptions {
  /** A `pg.Pool` (or `createPostgresPool()`), on a database `migrate()` has prepared. */
  readonly pool: PostgresPool;
  /** Where rows left out of a listing are reported. Default: the SDK's logger. */
  readonly logger?: Logger;
}

/** Inserts or replaces the config; the owner of a replaced one stays. */
const SAVE: Statement = {
  name: "a2a_save_push_config",
  text: `INSERT INTO a2a_push_configs (scope, task_id, id, owner, config) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (scope, task_id, id) DO UPDATE SET config = excluded.config, updated_at = now()`,
};
const GET: Statement = {
  name: "a2a_get_push_config",
  text: "SELECT id, owner, config FROM a2a_push_configs WHERE scope = $1 AND task_id = $2 AND id = $3",
};
const LIST_FIRST: Statement = {
  name: "a2a_list_push_configs",
  text: "SELECT id, owner, config FROM a2a_push_configs WHERE scope = $1 AND task_id = $2 ORDER BY id LIMIT $3",
};
const LIST_AFTER: Statement = {
  name: "a2a_list_push_configs_after",
  text: "SELECT id, owner, config FROM a2a_push_configs WHERE scope = $1 AND task_id = $2 AND id > $4 ORDER BY id LIMIT $3",
};
const DELETE: Statement = {
  name: "a2a_delete_push_config",
  text: "DELETE FROM a2a_push_configs WHERE scope = $1 AND task_id = $2 AND id = $3",
};

interface ConfigRow extends Row {
  id: string;
  owner: string;
  config: string;
}

export class PgPushNotificationConfigStore implements PushNotificationConfigStore {
  readonly #pool: PostgresPool;
  readonly #logger: Logger;

  constructor(options: PgPushNotificationConfigStoreOptions) {
    this.#pool = options.pool;
    this.#logger = options.logger ?? defaultLogger();
  }

  async get(taskId: string, configId: string, scope: string): Promise<StoredPushConfig | undefined> {
    const row = (await run(this.#pool, GET, [scope, taskId, configId]))[0] as ConfigRow | undefined;
    return row && { config: configFromRow(row), owner: row.owner };
  }

  async save(config: TaskPushNotificationConfig, scope: string, owner: string): Promise<void> {
    const text = encodeMessageText(TaskPushNotificationConfigSchema, config);
    await run(this.#pool, SAVE, [scope, config.taskId, config.id, owner, text]);
  }

  async list(taskId: string, scope: string, query: PushConfigQuery): Promise<PushConfigPage> {
    const page = await fillPage(
      query.pageSize,
      query.after,
      async (after, limit) =>
        (await run(
          this.#pool,
          after === undefined ? LIST_FIRST : LIST_AFTER,
          after === undefined ? [scope, taskId, limit] : [scope, taskId, limit, after],
        )) as ConfigRow[],
      (row) => {
        try {
          return { config: configFromRow(row), owner: row.owner };
        } catch (error) {
          this.#logger.error(
            { err: error, task_id: taskId, config_id: row.id, scope },
            "stored push config cannot be read; left out of the listing",
          );
          return undefined;
        }
      },
      (row) => row.id,
    );
    return { configs: page.items, more: page.more };
  }

  async delete(taskId: string, configId: string, scope: string): Promise<void> {
    await run(this.#pool, DELETE, [scope, taskId, configId]);
  }
}

function configFromRow(row: ConfigRow): TaskPushNotificationConfig {
  try {
    return decodeMessage(TaskPushNotificationConfigSchema, JSON.parse(row.config), { validateRequired: false });
  } catch (error) {
    throw new CorruptRecordError(row.id, `Stored push config ${row.id} cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
