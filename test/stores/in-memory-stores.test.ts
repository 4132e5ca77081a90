/** The shared store suites against the in-memory stores. */
import { InMemoryPushNotificationConfigStore } from "../../src/server/push-config-store.js";
import { InMemoryTaskStore } from "../../src/server/task-store.js";
import { pushConfigStoreSuite } from "./push-config-store-suite.js";
import { taskStoreSuite } from "./task-store-suite.js";

taskStoreSuite("InMemoryTaskStore", async () => ({ store: new InMemoryTaskStore() }));
pushConfigStoreSuite("InMemoryPushNotificationConfigStore", async () => ({
  store: new InMemoryPushNotificationConfigStore(),
}));
