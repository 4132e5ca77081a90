/**
 * Context variables for async code: the `contextvars` semantics the
 * reference's skill harness relies on, on top of `AsyncLocalStorage`.
 *
 * A scope is a map from variables to values. Code runs in a scope and every
 * async continuation it starts sees the same scope. `runInCopiedScope` runs a
 * function in a *copy* of the current scope and, once the function has
 * settled (however it settled), copies every value back onto the scope it was
 * started from. That is what lets a skill run as its own cancellable unit of
 * work while a `ContextVar.set()` inside it stays visible to the caller
 * afterwards (harness rule 6, docs/architecture.md). `AsyncLocalStorage.run`
 * alone gives isolation but not the copy-back.
 *
 * A process that never creates a ContextVar pays nothing: until the first
 * one exists, `runInCopiedScope` just calls its function, and async context
 * tracking (which costs on every promise) is never switched on. Create
 * ContextVars at module scope, before the work that uses them starts.
 */
import { AsyncLocalStorage } from "node:async_hooks";

type Scope = Map<ContextVar<unknown>, unknown>;

const storage = new AsyncLocalStorage<Scope>();
/** Values set outside any scope (startup code) land here, like Python's root context. */
const rootScope: Scope = new Map();
/** Whether any ContextVar exists; until then there is nothing to isolate or copy back. */
let inUse = false;

function currentScope(): Scope {
  return storage.getStore() ?? rootScope;
}

/** A typed variable whose value is per async scope. */
export class ContextVar<T> {
  readonly name: string;
  readonly #default: T | undefined;
  readonly #hasDefault: boolean;

  constructor(name: string, options: { default?: T } = {}) {
    inUse = true;
    this.name = name;
    this.#hasDefault = Object.hasOwn(options, "default");
    this.#default = options.default;
  }

  /** The value in the current scope, else the default; undefined when neither exists. */
  get(): T | undefined {
    const scope = currentScope();
    return scope.has(this as ContextVar<unknown>) ? (scope.get(this as ContextVar<unknown>) as T) : this.#default;
  }

  /** The value in the current scope, else the default; throws when neither exists. */
  require(): T {
    const scope = currentScope();
    if (scope.has(this as ContextVar<unknown>)) return scope.get(this as ContextVar<unknown>) as T;
    if (this.#hasDefault) return this.#default as T;
    throw new LookupError(`ContextVar '${this.name}' has no value in this scope and no default`);
  }

  /** Sets the value in the current scope (and so for everything that scope later runs). */
  set(value: T): void {
    currentScope().set(this as ContextVar<unknown>, value);
  }

  /** Removes the value from the current scope, so `get()` answers the default again. */
  delete(): void {
    currentScope().delete(this as ContextVar<unknown>);
  }
}

/** A `ContextVar` without a value or a default was read with `require()`. */
export class LookupError extends Error {
  override readonly name = "LookupError";
}

/**
 * Runs `fn` in a fresh copy of the current scope. Values it sets stay inside:
 * use it to isolate concurrent units of work (one per HTTP request).
 */
export function runInNewScope<R>(fn: () => R): R {
  return storage.run(new Map(currentScope()), fn);
}

/** True when code runs inside a scope entered with one of the run functions. */
export function hasScope(): boolean {
  return storage.getStore() !== undefined;
}

/**
 * Runs `fn` in a copy of the current scope. When its promise settles (however
 * it settles), every value of that copy is copied back onto the current scope,
 * before anyone awaiting the returned promise resumes. A caller may also stop
 * waiting (a preempted skill): the copy-back still happens when `fn` settles.
 * Outside any scope there is nothing to copy back onto: values set inside stay
 * inside, so concurrent work never leaks values into the shared root.
 * Deleting a value inside is not copied back, as with Python's `contextvars`.
 */
export function runInCopiedScope<R>(fn: () => R | PromiseLike<R>): Promise<Awaited<R>> {
  if (!inUse) return settledPromise(fn);
  const outer = storage.getStore();
  const inner: Scope = new Map(outer ?? rootScope);
  const settled = (async () => storage.run(inner, fn))();
  if (outer) {
    const copyBack = () => {
      for (const [variable, value] of inner) outer.set(variable, value);
    };
    settled.then(copyBack, copyBack);
  }
  return settled as Promise<Awaited<R>>;
}

/**
 * `fn()` as a promise, a throw as a rejection. A native promise comes back as
 * it is: an async wrapper around it would cost a promise and two extra ticks
 * per call (one call per skill run).
 */
function settledPromise<R>(fn: () => R | PromiseLike<R>): Promise<Awaited<R>> {
  try {
    return Promise.resolve(fn()) as Promise<Awaited<R>>;
  } catch (error) {
    return Promise.reject(error);
  }
}
