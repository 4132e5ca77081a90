/**
 * Fleet-safe isolation on the in-memory store: two users of one tenant,
 * 1,000 tasks each; every listing and page token checked (support/two-users.ts).
 * test/fleet/owner-isolation.test.ts runs the same check on PostgreSQL.
 */
import { describe, it } from "vitest";
import { InMemoryTaskStore } from "../../src/server/task-store.js";
import { expectTwoUsersIsolated } from "./support/two-users.js";

describe("two users of one tenant on the in-memory store", () => {
  it("each list, page and count only their own of 1,000 tasks each", { timeout: 180_000 }, async () => {
    await expectTwoUsersIsolated(new InMemoryTaskStore(), 1_000);
  });
});
