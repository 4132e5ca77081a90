/**
 * Fleet-safe isolation on PostgreSQL: the check of test/auth/fleet-isolation.test.ts
 * (two users of one tenant, 1,000 tasks each, every listing and page token)
 * with an agent whose tasks live in `PgTaskStore`, where ListTasks pages and
 * totals come from SQL over the owner index and counters.
 */
import { describe, it } from "vitest";
import { PgTaskStore } from "../../src/fleet/pg-task-store.js";
import { expectTwoUsersIsolated } from "../auth/support/two-users.js";
import { useFleetDatabase } from "./support/fleet-database.js";
import { postgresUrl } from "./support/postgres.js";

describe.skipIf(!postgresUrl)("two users of one tenant on the PostgreSQL store", () => {
  const db = useFleetDatabase();
  it("each list, page and count only their own of 1,000 tasks each", { timeout: 300_000 }, async () => {
    await db.current.clear();
    await expectTwoUsersIsolated(new PgTaskStore({ pool: db.current.pool }), 1_000);
  });
});
