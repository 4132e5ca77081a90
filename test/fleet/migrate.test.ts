/** migrate(): ordered, recorded, idempotent, transactional, and safe when replicas start at once. */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { loadMigrations, migrate, pendingMigrations } from "../../src/fleet/migrate.js";
import { StoreError } from "../../src/server/store-errors.js";
import { createDatabase, postgresUrl } from "./support/postgres.js";

/** The migrations the package ships, in order. */
const SHIPPED = [
  { version: 1, name: "0001_init.sql" },
  { version: 2, name: "0002_statement_counts.sql" },
];

describe.skipIf(!postgresUrl)("migrate", () => {
  const opened: { pools: pg.Pool[] } = { pools: [] };
  afterEach(async () => {
    await Promise.all(opened.pools.splice(0).map((pool) => pool.end()));
  });
  const freshPool = async () => {
    const db = await createDatabase();
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    opened.pools.push(pool);
    return { db, pool };
  };
  const tables = async (pool: pg.Pool) =>
    (
      await pool.query<{ tablename: string }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
      )
    ).rows.map((r) => r.tablename);

  it("finds the shipped migrations beside the module, numbered and checksummed", async () => {
    const migrations = await loadMigrations();
    expect(migrations.map(({ version, name }) => ({ version, name }))).toEqual(SHIPPED);
    for (const m of migrations) expect(m.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it("applies the schema once, records it, and finds nothing to do the second time", async () => {
    const { pool } = await freshPool();
    expect(await migrate(pool)).toEqual(SHIPPED.map((m) => m.name));
    expect(await migrate(pool)).toEqual([]);
    expect(await tables(pool)).toEqual([
      "a2a_push_configs",
      "a2a_schema_migrations",
      "a2a_task_counts",
      "a2a_task_events",
      "a2a_task_leases",
      "a2a_tasks",
    ]);
    const recorded = (await pool.query("SELECT version, name, checksum FROM a2a_schema_migrations ORDER BY version"))
      .rows;
    expect(recorded).toEqual(
      (await loadMigrations()).map(({ version, name, checksum }) => ({ version, name, checksum })),
    );
  });

  it("applies the schema exactly once when replicas migrate at the same moment", async () => {
    const { db } = await freshPool();
    const replicas = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: db.url, max: 1 }));
    opened.pools.push(...replicas);
    const applied = await Promise.all(replicas.map((pool) => migrate(pool)));
    expect(applied.flat()).toEqual(SHIPPED.map((m) => m.name));
    expect((await replicas[0]?.query("SELECT count(*)::int AS n FROM a2a_schema_migrations"))?.rows[0].n).toBe(
      SHIPPED.length,
    );
  });

  it("applies files in the order of their number, each in its own transaction, and refuses an edited one", async () => {
    const { pool } = await freshPool();
    const directory = await mkdtemp(join(tmpdir(), "migrations-"));
    await writeFile(join(directory, "0002_second.sql"), "INSERT INTO t VALUES (2);");
    await writeFile(join(directory, "0001_first.sql"), "CREATE TABLE t (n int); INSERT INTO t VALUES (1);");
    await writeFile(join(directory, "README.md"), "not a migration");
    expect(await migrate(pool, { directory })).toEqual(["0001_first.sql", "0002_second.sql"]);

    await writeFile(join(directory, "0003_broken.sql"), "CREATE TABLE u (n int); INSERT INTO t VALUES (1 / 0);");
    await expect(migrate(pool, { directory })).rejects.toBeInstanceOf(StoreError);
    expect(await tables(pool)).not.toContain("u");
    expect((await pool.query("SELECT count(*)::int AS n FROM a2a_schema_migrations")).rows[0].n).toBe(2);

    await writeFile(join(directory, "0003_broken.sql"), "INSERT INTO t VALUES (3);");
    expect(await migrate(pool, { directory })).toEqual(["0003_broken.sql"]);
    expect((await pool.query("SELECT n FROM t ORDER BY n")).rows.map((r) => r.n)).toEqual([1, 2, 3]);

    await writeFile(join(directory, "0001_first.sql"), "CREATE TABLE t (n bigint);");
    await expect(migrate(pool, { directory })).rejects.toThrow(/0001_first.sql differs/);
    await expect(pendingMigrations(pool, { directory })).rejects.toThrow(/0001_first.sql differs/);
  });

  it("lists what migrate would apply, applying nothing: every file on a fresh database, then the new ones", async () => {
    const { pool } = await freshPool();
    const directory = await mkdtemp(join(tmpdir(), "migrations-"));
    await writeFile(join(directory, "0001_first.sql"), "CREATE TABLE t (n int);");
    expect((await pendingMigrations(pool, { directory })).map((m) => m.name)).toEqual(["0001_first.sql"]);
    expect(await tables(pool)).toEqual([]);
    await migrate(pool, { directory });
    expect(await pendingMigrations(pool, { directory })).toEqual([]);
    await writeFile(join(directory, "0002_second.sql"), "INSERT INTO t VALUES (2);");
    expect((await pendingMigrations(pool, { directory })).map((m) => m.name)).toEqual(["0002_second.sql"]);
  });
});
