/**
 * The process environment where there is one (Node, Bun, Deno's Node
 * compatibility), and an empty one elsewhere (a browser, a worker): code that
 * reads configuration from the environment runs everywhere and finds nothing
 * set where nothing can be.
 */
export type Env = Readonly<Record<string, string | undefined>>;

const EMPTY: Env = Object.freeze({});

export function processEnv(): Env {
  return (globalThis as { process?: { env?: Env } }).process?.env ?? EMPTY;
}
