/**
 * A page of stored records when some rows may not decode: a row that cannot
 * be read is left out (and reported), and the page is topped up from after
 * it, so one damaged row neither fails a listing nor shortens or ends it.
 */

export interface FilledPage<T> {
  readonly items: T[];
  /** Whether rows follow the last one read. */
  readonly more: boolean;
}

/**
 * Up to `pageSize` decoded items after `after`. `fetch(after, limit)` answers
 * up to `limit` rows in order; `decode` answers undefined for a row it left out.
 */
export async function fillPage<R, T, C>(
  pageSize: number,
  after: C | undefined,
  fetch: (after: C | undefined, limit: number) => Promise<R[]>,
  decode: (row: R) => T | undefined,
  cursorOf: (row: R) => C,
): Promise<FilledPage<T>> {
  const items: T[] = [];
  for (;;) {
    const wanted = pageSize - items.length;
    const rows = await fetch(after, wanted + 1);
    const more = rows.length > wanted;
    for (const row of rows.slice(0, wanted)) {
      const item = decode(row);
      if (item !== undefined) items.push(item);
    }
    if (!more || items.length === pageSize) return { items, more };
    after = cursorOf(rows[wanted - 1] as R);
  }
}
