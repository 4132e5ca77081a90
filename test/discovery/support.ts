/** Setup the discovery suites share. */
import { afterEach } from "vitest";

/**
 * Teardowns run after each test, the last registered first (a client closes
 * before the server it talks to). Call once, at the top level of a test file.
 */
export function cleanupAfterEach(): (() => unknown)[] {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  return cleanup;
}

/** What `promise` rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}
