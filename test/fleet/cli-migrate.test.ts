/**
 * `novaos-a2a fleet migrate` against a real PostgreSQL: lists what a fresh
 * database lacks without touching it (`--dry-run`), applies it, finds nothing
 * to do the second time, and fails with the exit codes scripts rely on when
 * no database is named or none answers. The connection string never appears
 * in what it prints.
 */
import { createServer } from "node:net";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/exit-codes.js";
import { loadMigrations } from "../../src/fleet/migrate.js";
import { cli } from "../cli/support/run-cli.js";
import { createDatabase, postgresUrl } from "./support/postgres.js";

async function tables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
    return rows.map((row) => row.tablename as string);
  } finally {
    await client.end();
  }
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!postgresUrl)("novaos-a2a fleet migrate", () => {
  it("lists the pending migrations with --dry-run, applies them, then finds the schema up to date", async () => {
    const { url } = await createDatabase();
    const shipped = (await loadMigrations()).map((m) => m.name);

    const dry = await cli(["fleet", "migrate", "--dry-run", "--json"], { env: { DATABASE_URL: url } });
    expect(dry).toMatchObject({ code: EXIT.OK, stdout: `${JSON.stringify({ pending: shipped })}\n` });
    expect(await tables(url)).toEqual([]);

    const applied = await cli(["fleet", "migrate", "--database-url", url]);
    expect(applied.code).toBe(EXIT.OK);
    expect(applied.stdout).toBe(shipped.map((name) => `applied ${name}\n`).join(""));
    expect(await tables(url)).toContain("a2a_tasks");

    const again = await cli(["fleet", "migrate", "--dry-run"], { env: { DATABASE_URL: url } });
    expect(again).toMatchObject({ code: EXIT.OK, stdout: "the database schema is up to date\n" });
    const json = await cli(["fleet", "migrate", "--json"], { env: { DATABASE_URL: url } });
    expect(json).toMatchObject({ code: EXIT.OK, stdout: '{"applied":[]}\n' });
    for (const run of [dry, applied, again, json]) expect(run.stdout + run.stderr).not.toContain(url);
  });

  it("is a usage error without a database, and unreachable when none answers, without printing the URL", async () => {
    const none = await cli(["fleet", "migrate"]);
    expect(none.code).toBe(EXIT.USAGE);
    expect(none.stderr).toMatch(/--database-url or set DATABASE_URL/);

    const url = `postgres://agent:s3cret-password@127.0.0.1:${await closedPort()}/fleet`;
    const away = await cli(["fleet", "migrate", "--database-url", url]);
    expect(away.code).toBe(EXIT.UNREACHABLE);
    expect(away.stderr).not.toContain("s3cret-password");
  });
});
