/**
 * The test server the `postgres` project's globalSetup started, and a fresh
 * database in it for each test file, so files running side by side never
 * see each other's rows.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

/** The server's admin URL; "" when the PostgreSQL tests are skipped (see postgres-setup.ts). */
export const postgresUrl: string = inject("postgresUrl");

export interface TestDatabase {
  readonly url: string;
}

/** A new, empty database; the run's teardown removes it with the rest (see postgres-setup.ts). */
export async function createDatabase(): Promise<TestDatabase> {
  const name = `${inject("postgresDatabasePrefix")}${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return { url: url.toString() };
}
