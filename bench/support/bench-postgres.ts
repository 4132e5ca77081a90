/**
 * The PostgreSQL database of the fleet rows: `NOVAOS_BENCH_POSTGRES_URL` (a
 * server the bench may create databases on), else a throwaway cluster
 * (test/fleet/support/postgres-cluster.ts), and in it a fresh database
 * `migrate()` has prepared.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { migrate } from "../../src/fleet/migrate.js";
import { findPostgresBin, startPostgresCluster } from "../../test/fleet/support/postgres-cluster.js";

export interface BenchDatabase {
  readonly url: string;
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

export async function benchDatabase(): Promise<BenchDatabase> {
  let admin = process.env.NOVAOS_BENCH_POSTGRES_URL;
  let stopCluster: () => Promise<void> = async () => undefined;
  if (!admin) {
    const bin = findPostgresBin();
    if (!bin) throw new Error("No PostgreSQL binaries found: install PostgreSQL or set NOVAOS_BENCH_POSTGRES_URL");
    const cluster = await startPostgresCluster(bin);
    process.once("exit", () => cluster.stopNow());
    admin = cluster.url;
    stopCluster = () => cluster.stop();
  }
  const name = `bench_${randomUUID().replaceAll("-", "")}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  await migrate(pool);
  return {
    url: url.toString(),
    pool,
    async close() {
      await pool.end();
      await stopCluster();
    },
  };
}
