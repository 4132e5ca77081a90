/**
 * The chunks of a Fetch body, for readers that stop early (a byte cap, a bad
 * event, a caller that breaks out): leaving the loop cancels the body, which
 * releases the connection, and a cancel that fails is not a second error.
 */
export async function* bodyChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = body.getReader();
  let done = false;
  try {
    while (true) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
