/**
 * vitest globalSetup of the `postgres` project: one PostgreSQL cluster for
 * every test file of the run (each file makes its own database in it).
 * `NOVAOS_TEST_POSTGRES_URL` points the tests at a server of your own instead.
 * Without PostgreSQL binaries the tests fail in CI (`CI` set) and are skipped
 * elsewhere, with the reason printed.
 */
import type { TestProject } from "vitest/node";
import { findPostgresBin, startPostgresCluster } from "./postgres-cluster.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The admin URL of the test server; "" when the tests are skipped. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const external = process.env.NOVAOS_TEST_POSTGRES_URL;
  if (external) {
    project.provide("postgresUrl", external);
    return undefined;
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
