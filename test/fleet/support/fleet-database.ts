/**
 * A migrated database of the test server for one test file, a pool on it,
 * and a way to empty it between tests.
 */
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { migrate } from "../../../src/fleet/migrate.js";
import { createDatabase } from "./postgres.js";

export interface FleetDatabase {
  readonly url: string;
  readonly pool: pg.Pool;
  /** Empties every table of the fleet schema. */
  clear(): Promise<void>;
}

/** Registers beforeAll/afterAll hooks making the file's database and closing its pool; read it in tests. */
export function useFleetDatabase(): { current: FleetDatabase } {
  const holder = { current: undefined as unknown as FleetDatabase };
  beforeAll(async () => {
    const database = await createDatabase();
    const pool = new pg.Pool({ connectionString: database.url, max: 10 });
    await migrate(pool);
    holder.current = {
      url: database.url,
      pool,
      clear: async () => {
        await pool.query("TRUNCATE a2a_tasks, a2a_task_counts, a2a_push_configs, a2a_task_events, a2a_task_leases");
      },
    };
  });
  afterAll(async () => {
    await holder.current?.pool.end();
  });
  return holder;
}
