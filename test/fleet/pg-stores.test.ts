/** The shared store suites against the PostgreSQL stores, on a fresh migrated database. */
import { describe } from "vitest";
import { PgPushNotificationConfigStore } from "../../src/fleet/pg-push-config-store.js";
import { PgTaskStore } from "../../src/fleet/pg-task-store.js";
import { pushConfigStoreSuite } from "../stores/push-config-store-suite.js";
import { taskStoreSuite } from "../stores/task-store-suite.js";
import { useFleetDatabase } from "./support/fleet-database.js";
import { postgresUrl } from "./support/postgres.js";

describe.skipIf(!postgresUrl)("PostgreSQL stores", () => {
  const db = useFleetDatabase();
  taskStoreSuite("PgTaskStore", async () => {
    await db.current.clear();
    return { store: new PgTaskStore({ pool: db.current.pool }) };
  });
  pushConfigStoreSuite("PgPushNotificationConfigStore", async () => {
    await db.current.clear();
    return { store: new PgPushNotificationConfigStore({ pool: db.current.pool }) };
  });
});
