/**
 * The PostgreSQL connection pool the fleet stores run on: node-postgres
 * (`pg`), an optional peer dependency of the SDK, loaded only when a pool is
 * made here. The stores take any pool of that shape (your own `pg.Pool`, or
 * one from `createPostgresPool`), and every driver failure leaves them as a
 * typed StoreError.
 *
 * `pg` was chosen over `postgres` (porsager) by measuring both on this
 * store's own statements: docs/fleet.md, "Choosing the driver".
 */
import { NovaOSError } from "../errors/novaos-errors.js";
import { StoreError, StoreTimeoutError, StoreUnavailableError } from "../server/store-errors.js";

export type Row = Record<string, unknown>;

/** A statement prepared once per connection under its name. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/** What the stores use of a `pg.Pool` (so their types do not need `@types/pg`). */
export interface PostgresPool {
  query(config: { name?: string; text: string; values?: unknown[] }): Promise<{ rows: Row[] }>;
  connect(): Promise<PostgresClient>;
}

/** One connection of a pool, held until released (for advisory locks and transactions). */
export interface PostgresClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
  release(error?: Error | boolean): void;
}

export interface PostgresPoolOptions {
  /** `postgres://user:password@host:5432/database` (libpq URL; `?sslmode=…` and the like are honoured). */
  readonly connectionString: string;
  /** Connections at most. Default 10. */
  readonly max?: number;
  /** A statement running longer is canceled by the server and fails with StoreTimeoutError. Default 10,000 ms. */
  readonly statementTimeoutMs?: number;
  /** A call waiting longer for a connection (all busy, or the server unreachable) fails with StoreUnavailableError. Default 5,000 ms. */
  readonly connectionTimeoutMs?: number;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
export const DEFAULT_CONNECTION_TIMEOUT_MS = 5_000;

/** A pool with the defaults above, the driver loaded on first use; end it with `end()` on shutdown. */
export async function createPostgresPool(
  options: PostgresPoolOptions,
  driver = "pg",
): Promise<PostgresPool & { end(): Promise<void> }> {
  const pg = await loadDriver(driver);
  return new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? DEFAULT_POOL_SIZE,
    statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
  });
}

interface PgModule {
  Pool: new (config: Record<string, unknown>) => PostgresPool & { end(): Promise<void> };
}

async function loadDriver(specifier: string): Promise<PgModule> {
  let loaded: { default?: PgModule } & Partial<PgModule>;
  try {
    loaded = await import(specifier);
  } catch (error) {
    throw new NovaOSError(
      `The PostgreSQL stores need the "${specifier}" package, an optional peer dependency of @novaos/client-sdk: ` +
        `npm install ${specifier}`,
      { cause: error },
    );
  }
  return (loaded.Pool ? loaded : loaded.default) as PgModule;
}

/** Runs a named statement on the pool; a failure is a typed StoreError. */
export async function run(pool: PostgresPool, statement: Statement, values: unknown[]): Promise<Row[]> {
  try {
    return (await pool.query({ name: statement.name, text: statement.text, values })).rows;
  } catch (error) {
    throw storeErrorOf(error);
  }
}

/** SQLSTATEs of a server that cannot serve right now: connection exceptions, shutdowns, too many connections. */
const UNAVAILABLE_STATES = /^(08|57P0[1-3]|53300)/;

/** The typed error for a driver failure. */
export function storeErrorOf(error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : String(error);
  if (code === "57014") return new StoreTimeoutError(`PostgreSQL canceled the statement: ${text}`, { cause: error });
  if (
    (typeof code === "string" && (UNAVAILABLE_STATES.test(code) || code.startsWith("E"))) ||
    /timeout exceeded when trying to connect|Connection terminated|connection ended/i.test(text)
  ) {
    return new StoreUnavailableError(`PostgreSQL is not available: ${text}`, { cause: error });
  }
  return new StoreError(`PostgreSQL failed: ${text}`, { cause: error });
}
