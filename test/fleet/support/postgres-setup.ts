/**
 * vitest globalSetup of the `postgres` project: one PostgreSQL cluster for
 * every test file of the run (each file makes its own database in it).
 * `NOVAOS_TEST_POSTGRES_URL` points the tests at a server of your own instead.
 * Without PostgreSQL binaries the tests fail in CI (`CI` set) and are skipped
 * elsewhere, with the reason printed.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { findPostgresBin, startPostgresCluster } from "./postgres-cluster.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The admin URL of the test server; "" when the tests are skipped. */
    postgresUrl: string;
    /** The name prefix of this run's test databases. */
    postgresDatabasePrefix: string;
  }
}

/**
 * Drops this run's databases on a server of your own, once every test file is done (dropping them from the
 * test files would cut connections a pool is still closing, which then report errors).
 */
async function dropDatabases(url: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [
      `${prefix}%`,
    ]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const prefix = `t_${randomBytes(4).toString("hex")}_`;
  project.provide("postgresDatabasePrefix", prefix);
  const external = process.env.NOVAOS_TEST_POSTGRES_URL;
  if (external) {
    project.provide("postgresUrl", external);
    return () => dropDatabases(external, prefix);
  }
  const bin = findPostgresBin();
  if (!bin) {
    const reason =
      "no PostgreSQL binaries (initdb, pg_ctl) found: install PostgreSQL (apt-get install postgresql), " +
      "set POSTGRES_BIN to their directory, or NOVAOS_TEST_POSTGRES_URL to a server";
    if (process.env.CI) throw new Error(`The PostgreSQL tests cannot run in CI: ${reason}`);
    console.warn(`\n[postgres] skipping the PostgreSQL tests: ${reason}\n`);
    project.provide("postgresUrl", "");
    return undefined;
  }
  const cluster = await startPostgresCluster(bin);
  const onExit = () => cluster.stopNow();
  process.once("exit", onExit);
  project.provide("postgresUrl", cluster.url);
  return async () => {
    process.off("exit", onExit);
    await cluster.stop();
  };
}
