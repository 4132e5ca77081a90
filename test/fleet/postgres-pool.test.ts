/** The pool seam: the driver loaded on demand with a clear error when missing, and driver failures typed. */
import { describe, expect, it } from "vitest";
import { NovaOSError } from "../../src/errors/novaos-errors.js";
import { createPostgresPool, storeErrorOf } from "../../src/fleet/postgres-pool.js";
import { StoreError, StoreTimeoutError, StoreUnavailableError } from "../../src/server/store-errors.js";

describe("createPostgresPool", () => {
  it("says which package to install when the driver is missing", async () => {
    const made = createPostgresPool({ connectionString: "postgres://localhost/x" }, "pg-driver-not-installed");
    await expect(made).rejects.toBeInstanceOf(NovaOSError);
    await expect(made).rejects.toThrow(/npm install pg-driver-not-installed/);
  });

  it("makes a pg pool with the SDK's defaults", async () => {
    const pool = await createPostgresPool({ connectionString: "postgres://localhost/x" });
    const options = (pool as unknown as { options: Record<string, unknown> }).options;
    expect(options).toMatchObject({ max: 10, statement_timeout: 10_000, connectionTimeoutMillis: 5_000 });
    await pool.end();
  });
});

describe("storeErrorOf", () => {
  it.each([
    [{ code: "57014", message: "canceling statement due to statement timeout" }, StoreTimeoutError],
    [{ code: "08006", message: "connection failure" }, StoreUnavailableError],
    [{ code: "57P01", message: "terminating connection due to administrator command" }, StoreUnavailableError],
    [{ code: "53300", message: "too many connections" }, StoreUnavailableError],
    [Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }), StoreUnavailableError],
    [new Error("timeout exceeded when trying to connect"), StoreUnavailableError],
    [new Error("Connection terminated unexpectedly"), StoreUnavailableError],
    [{ code: "42P01", message: 'relation "a2a_tasks" does not exist' }, StoreError],
  ])("types %o", (error, type) => {
    const typed = storeErrorOf(error);
    expect(typed).toBeInstanceOf(type);
    expect(typed.cause).toBe(error);
  });

  it("keeps a store error as it is", () => {
    const error = new StoreTimeoutError("x");
    expect(storeErrorOf(error)).toBe(error);
  });
});
