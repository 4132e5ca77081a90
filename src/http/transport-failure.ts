/**
 * A call that got no answer: refused, reset, unresolvable, TLS, redirect
 * refused, or cut off midway. It is a retryable NovaOSConnectionError,
 * unless an SDK error caused it: a connect-time guard (the discovery area's
 * address check) refuses with its own typed error, and that error is what the
 * caller sees, however deep the fetch or HTTP/2 layers wrapped it.
 */
import { NovaOSConnectionError, NovaOSError } from "../errors/novaos-errors.js";

/** The first SDK error in `error`'s cause chain (itself included). */
export function findSdkError(error: unknown): NovaOSError | undefined {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    if (e instanceof NovaOSError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function connectionError(error: unknown, url: string): NovaOSError {
  const sdk = findSdkError(error);
  if (sdk) return sdk;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const reason =
    typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : undefined;
  const base = error instanceof Error ? error.message : String(error);
  return new NovaOSConnectionError(`Connection to ${url} failed: ${reason ? `${base} (${reason})` : base}`, {
    cause: error,
  });
}
