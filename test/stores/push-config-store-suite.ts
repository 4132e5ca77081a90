/**
 * The behaviour every PushNotificationConfigStore must have, run against each
 * implementation: lossless round trips, the first registrant kept as owner,
 * scoping by (scope, task), pages in config-id order, idempotent delete.
 */
import { create, equals } from "@bufbuild/protobuf";
import { beforeEach, describe, expect, it } from "vitest";
import { type TaskPushNotificationConfig, TaskPushNotificationConfigSchema } from "../../gen/a2a_pb.js";
import type { PushNotificationConfigStore } from "../../src/server/push-config-store.js";

export interface PushConfigStoreFixture {
  readonly store: PushNotificationConfigStore;
}

const config = (taskId: string, id: string, url = `https://hooks.example/${id}`): TaskPushNotificationConfig =>
  create(TaskPushNotificationConfigSchema, {
    taskId,
    id,
    url,
    token: "tök-🔑",
    authentication: { scheme: "Bearer", credentials: "secret" },
    tenant: "tenant-a",
  });

export function pushConfigStoreSuite(name: string, fixture: () => Promise<PushConfigStoreFixture>): void {
  describe(`PushNotificationConfigStore: ${name}`, () => {
    let store: PushNotificationConfigStore;
    beforeEach(async () => {
      store = (await fixture()).store;
    });

    it("round-trips every field and answers undefined for an unknown config", async () => {
      await store.save(config("t", "a"), "s", "alice");
      const stored = await store.get("t", "a", "s");
      expect(
        equals(TaskPushNotificationConfigSchema, stored?.config as TaskPushNotificationConfig, config("t", "a")),
      ).toBe(true);
      expect(stored?.owner).toBe("alice");
      expect(await store.get("t", "missing", "s")).toBeUndefined();
      expect(await store.get("other", "a", "s")).toBeUndefined();
      expect(await store.get("t", "a", "other")).toBeUndefined();
    });

    it("replaces a config in place and keeps the owner that registered it", async () => {
      await store.save(config("t", "a"), "s", "alice");
      await store.save(config("t", "a", "https://hooks.example/changed"), "s", "bob");
      const stored = await store.get("t", "a", "s");
      expect(stored?.config.url).toBe("https://hooks.example/changed");
      expect(stored?.owner).toBe("alice");
      expect((await store.list("t", "s", { after: undefined, pageSize: 10 })).configs).toHaveLength(1);
    });

    it("lists one task's configs of one scope in id order, in pages after an id", async () => {
      for (const id of ["c", "a", "é", "b", "Z"]) await store.save(config("t", id), "s", "");
      await store.save(config("t2", "a"), "s", "");
      await store.save(config("t", "x"), "other", "");
      const all = await store.list("t", "s", { after: undefined, pageSize: 10 });
      expect(all.configs.map((c) => c.config.id)).toEqual(["Z", "a", "b", "c", "é"]);
      expect(all.more).toBe(false);
      const first = await store.list("t", "s", { after: undefined, pageSize: 2 });
      expect(first.configs.map((c) => c.config.id)).toEqual(["Z", "a"]);
      expect(first.more).toBe(true);
      const next = await store.list("t", "s", { after: "a", pageSize: 2 });
      expect(next.configs.map((c) => c.config.id)).toEqual(["b", "c"]);
      expect(next.more).toBe(true);
      const last = await store.list("t", "s", { after: "c", pageSize: 2 });
      expect(last.configs.map((c) => c.config.id)).toEqual(["é"]);
      expect(last.more).toBe(false);
      expect((await store.list("none", "s", { after: undefined, pageSize: 2 })).configs).toEqual([]);
    });

    it("deletes one config; a missing one is no error", async () => {
      await store.save(config("t", "a"), "s", "");
      await store.save(config("t", "b"), "s", "");
      await store.delete("t", "a", "s");
      await store.delete("t", "a", "s");
      await store.delete("t", "b", "other");
      expect(await store.get("t", "a", "s")).toBeUndefined();
      expect((await store.get("t", "b", "s"))?.config.id).toBe("b");
    });
  });
}
