/**
 * `@novaos/client-sdk/fleet`: durable task and push-config stores on
 * PostgreSQL for agents run as several replicas, and the migration that
 * prepares their database. Needs the `pg` package (an optional peer
 * dependency). See docs/fleet.md.
 */
export {
  loadMigrations,
  MIGRATION_LOCK_KEY,
  type MigrateOptions,
  type Migration,
  migrate,
  pendingMigrations,
} from "./migrate.js";
export { PgPushNotificationConfigStore, type PgPushNotificationConfigStoreOptions } from "./pg-push-config-store.js";
export {
  DEFAULT_EVENT_RETENTION_MS,
  DEFAULT_LEASE_MS,
  DEFAULT_RENEW_MS,
  DEFAULT_RETRY_MS,
  PgTaskFleet,
  type PgTaskFleetOptions,
} from "./pg-task-fleet.js";
export { PgTaskStore, type PgTaskStoreOptions } from "./pg-task-store.js";
export {
  createPostgresPool,
  DEFAULT_CONNECTION_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  type PostgresClient,
  type PostgresPool,
  type PostgresPoolOptions,
} from "./postgres-pool.js";
