/**
 * The fleet schema, applied by `migrate(pool)`: the SQL files of
 * `migrations/` (shipped with the package, found beside this module in ESM
 * and CJS builds), in the order of their number, each in its own transaction
 * and recorded in `a2a_schema_migrations` with a checksum. Idempotent (an
 * applied file is skipped, a changed one refused) and safe when several
 * replicas start at once: every run holds one PostgreSQL advisory lock, so
 * they apply the files one after the other and the later ones find nothing
 * to do.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { StoreError } from "../server/store-errors.js";
import { type PostgresClient, type PostgresPool, storeErrorOf } from "./postgres-pool.js";

/** The advisory lock every migrate() holds: an arbitrary key of ours ("NovaOSA" in ASCII). */
export const MIGRATION_LOCK_KEY = "22063618262872897";

export interface Migration {
  /** The number the file name starts with. */
  readonly version: number;
  /** The file name, e.g. `0001_init.sql`. */
  readonly name: string;
  readonly sql: string;
  /** sha256 of the file, hex. */
  readonly checksum: string;
}

export interface MigrateOptions {
  /** Where the SQL files are. Default: the `migrations` directory shipped beside this module. */
  readonly directory?: string;
}

/** The shipped migrations, in order. (The CJS build rewrites `import.meta.url` to this file's URL.) */
export async function loadMigrations(
  directory = join(dirname(fileURLToPath(import.meta.url)), "migrations"),
): Promise<Migration[]> {
  const names = (await readdir(directory)).filter((name) => /^\d+_[\w-]+\.sql$/.test(name));
  const migrations = await Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(directory, name), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      return { version: Number.parseInt(name, 10), name, sql, checksum };
    }),
  );
  migrations.sort((a, b) => a.version - b.version);
  for (const [i, m] of migrations.entries()) {
    if (i > 0 && m.version === migrations[i - 1]?.version) {
      throw new StoreError(`Two migrations are numbered ${m.version}: ${migrations[i - 1]?.name} and ${m.name}`);
    }
  }
  return migrations;
}

/** Applies every migration the database lacks; answers the names applied by this call. */
export async function migrate(pool: PostgresPool, options: MigrateOptions = {}): Promise<string[]> {
  const migrations = await loadMigrations(options.directory);
  let client: PostgresClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw storeErrorOf(error);
  }
  // Until the lock is given back, the connection may hold it (or a transaction): if that fails, the pool drops it.
  let clean = false;
  try {
    await query(client, "SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      return await applyMissing(client, migrations);
    } finally {
      await query(client, "SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
      clean = true;
    }
  } finally {
    client.release(!clean);
  }
}

async function applyMissing(client: PostgresClient, migrations: Migration[]): Promise<string[]> {
  await query(
    client,
    `CREATE TABLE IF NOT EXISTS a2a_schema_migrations (
       version integer PRIMARY KEY,
       name text NOT NULL,
       checksum text NOT NULL,
       applied_at timestamptz NOT NULL DEFAULT now()
     )`,
  );
  const recorded = await query(client, "SELECT version, name, checksum FROM a2a_schema_migrations");
  const done: string[] = [];
  for (const migration of unapplied(migrations, recorded)) {
    await query(client, "BEGIN");
    try {
      await query(client, migration.sql);
      await query(client, "INSERT INTO a2a_schema_migrations (version, name, checksum) VALUES ($1, $2, $3)", [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      await query(client, "COMMIT");
    } catch (error) {
      await query(client, "ROLLBACK").catch(() => undefined);
      throw error;
    }
    done.push(migration.name);
  }
  return done;
}

/**
 * The migrations a database lacks, without applying any (what `migrate` would apply now): none recorded when
 * `a2a_schema_migrations` does not exist yet. Refuses, as `migrate` does, an applied file that was edited.
 */
export async function pendingMigrations(pool: PostgresPool, options: MigrateOptions = {}): Promise<Migration[]> {
  const migrations = await loadMigrations(options.directory);
  let recorded: Record<string, unknown>[] = [];
  try {
    const { rows } = await pool.query({ text: "SELECT to_regclass('a2a_schema_migrations') IS NOT NULL AS made" });
    if (rows[0]?.made === true) {
      recorded = (await pool.query({ text: "SELECT version, name, checksum FROM a2a_schema_migrations" })).rows;
    }
  } catch (error) {
    throw storeErrorOf(error);
  }
  return unapplied(migrations, recorded);
}

/** The migrations not among the `recorded` rows of `a2a_schema_migrations`; an edited applied file is refused. */
function unapplied(migrations: readonly Migration[], recorded: readonly Record<string, unknown>[]): Migration[] {
  const applied = new Map(recorded.map((row) => [row.version as number, row as { name: string; checksum: string }]));
  return migrations.filter((migration) => {
    const row = applied.get(migration.version);
    if (row && row.checksum !== migration.checksum) {
      throw new StoreError(
        `Migration ${migration.name} differs from the one applied as ${row.name}: a shipped migration was edited`,
      );
    }
    return !row;
  });
}

async function query(client: PostgresClient, text: string, values?: unknown[]): Promise<Record<string, unknown>[]> {
  try {
    return (await client.query(text, values)).rows;
  } catch (error) {
    throw storeErrorOf(error);
  }
}
