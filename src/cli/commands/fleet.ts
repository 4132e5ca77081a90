/**
 * `fleet migrate`: prepares or upgrades the PostgreSQL database of agents run
 * as several replicas (docs/fleet.md) before they start, e.g. from a deploy
 * job: it applies the migrations shipped in this package that the database
 * lacks, as `migrate()` does at a replica's start-up, and `--dry-run` lists
 * them without applying any. The connection string comes from
 * `--database-url` or `$DATABASE_URL` and is never printed. The fleet entry
 * (and the `pg` driver it needs) loads only when the command runs.
 */
import type { Command } from "commander";
import { CliUsageError } from "../cli-errors.js";
import type { CliIo } from "../io.js";
import { createOutput } from "../output.js";

interface MigrateCommandOptions {
  readonly databaseUrl?: string;
  readonly dryRun?: boolean;
}

export function registerFleet(program: Command, io: CliIo): void {
  const fleet = program.command("fleet").description("the PostgreSQL database an agent's replicas share in fleet mode");
  fleet
    .command("migrate")
    .description("apply the package's schema migrations the database lacks (safe while replicas start)")
    .option("--database-url <url>", "postgres://user:password@host:5432/database (default: $DATABASE_URL)")
    .option("--dry-run", "list the migrations that would be applied, and apply none")
    .action(async (options: MigrateCommandOptions, command: Command) => {
      const out = createOutput(io, command.optsWithGlobals());
      const connectionString = options.databaseUrl ?? io.env.DATABASE_URL;
      if (!connectionString) throw new CliUsageError("no database: pass --database-url or set DATABASE_URL");
      const { createPostgresPool, migrate, pendingMigrations } = await import("../../fleet/index.js");
      const pool = await createPostgresPool({ connectionString, max: 1 });
      let names: string[];
      try {
        names = options.dryRun ? (await pendingMigrations(pool)).map((m) => m.name) : await migrate(pool);
      } finally {
        await pool.end();
      }
      const key = options.dryRun ? "pending" : "applied";
      if (out.json) return out.data({ [key]: names });
      if (names.length === 0) return out.line("the database schema is up to date");
      for (const name of names) out.line(`${options.dryRun ? "would apply" : "applied"} ${name}`);
    });
}
