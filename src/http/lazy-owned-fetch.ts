/**
 * An owned fetch made on the first request: undici loads only when a call is
 * sent, so a client that lives in a runtime-neutral entry (`ctx.memory` on
 * `/server`) costs nothing to import. Where undici cannot load (a Worker, a
 * browser), the runtime's own fetch is used and there is nothing to close.
 */
import type { OwnedFetch } from "./owned-fetch.js";

export function lazyOwnedFetch(): OwnedFetch {
  let owned: Promise<OwnedFetch> | undefined;
  const load = () =>
    (owned ??= import("./owned-fetch.js").then(
      ({ createOwnedFetch }) => createOwnedFetch(),
      () => ({ fetch: globalThis.fetch, close: async () => undefined }),
    ));
  const fetch = (async (input: string | URL, init?: RequestInit) =>
    (await load()).fetch(input, init)) as unknown as typeof globalThis.fetch;
  return {
    fetch,
    close: async () => {
      await (await owned)?.close();
    },
  };
}
