/**
 * What a memory call reads from the skill it is made for, and the
 * idempotency keys of its writes. The platform may run one logical
 * execution more than once (a retried stream); every retry carries the same
 * `ctx.idempotencyKey`, and the n-th write of each retry gets the same key,
 * so the Memory Service keeps one memory per write, not one per retry.
 *
 * The ordinal lives beside the context object, not in a client: a skill may
 * make several MemoryClients in one execution (`ctx.memory.client()` each
 * time), and their writes still count from 1 in order.
 */

/** The calling skill's context as memory calls read it; `AgentExecutionContext` is one. */
export interface MemoryCallerContext {
  /** Stable across retries of one logical execution; "" when the platform sent none. */
  readonly idempotencyKey: string;
  /** The A2A contextId: the conversation a hint consolidates from. */
  readonly contextId: string;
  /** Sent as the call's `request_id`. */
  readonly runId: string;
  /** Sent as the call's `trace_id` (32 hex). */
  readonly traceId: string;
}

/** The Memory Service's cap on an idempotency key. */
export const MAX_IDEMPOTENCY_KEY_CHARS = 256;

const writeOrdinals = new WeakMap<MemoryCallerContext, number>();

/**
 * The key of the next write made for `ctx`: `<ctx.idempotencyKey>:memory.write:<n>`, n counting from 1 per
 * context object. A context key too long to fit is replaced by its SHA-256 (hex). Undefined when the context
 * has no key.
 */
export async function nextWriteIdempotencyKey(ctx: MemoryCallerContext): Promise<string | undefined> {
  if (!ctx.idempotencyKey) return undefined;
  const ordinal = (writeOrdinals.get(ctx) ?? 0) + 1;
  writeOrdinals.set(ctx, ordinal);
  const suffix = `:memory.write:${ordinal}`;
  const base =
    ctx.idempotencyKey.length + suffix.length <= MAX_IDEMPOTENCY_KEY_CHARS
      ? ctx.idempotencyKey
      : await sha256Hex(ctx.idempotencyKey);
  return base + suffix;
}

/** SHA-256 of `text` in hex, with Web Crypto (every runtime the package claims has it). */
async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
