/**
 * A map from (group, key) to entries, bounded in entries and in estimated
 * bytes, as a whole and per group, that evicts least recently written
 * entries: `add` and `touch` make an entry the newest of its group, `get`
 * does not. The stores group by scope (the tenant), so the bounds are
 * per-tenant quotas and a store-wide budget.
 *
 * Who gives an entry up:
 * - a group over its own quota evicts its own oldest entry;
 * - when the map as a whole is over a bound, the group with the largest
 *   dominant share evicts its oldest entry. A group's share is the larger of
 *   its entries over the entry bound and its bytes over the byte bound (the
 *   writing group on a tie), so a tenant that floods the store evicts its own
 *   entries, and a tenant holding less than another never loses one to the
 *   other's writes.
 * The entry being written is never evicted by its own write: one entry
 * larger than a bound stays until the next write elsewhere.
 *
 * Every operation is O(1) but the choice of a group, O(log groups) through a
 * heap of groups by share. The entries are the caller's own objects (a
 * store's records), carrying their links and size: a stored item costs one
 * object, not a record plus a list node.
 *
 * Why lists per group and no `Map` used as its own LRU (delete, re-insert,
 * evict `keys().next()`): that is not O(1) in V8, as deleted entries stay in
 * the table until it is rehashed and the iterator steps over each of them
 * (~7 µs per save at 10,000 tasks); and a joined `scope + id` key is a new
 * string on every call, which V8 flattens and hashes again each time, where
 * the parts are the same strings every time and keep their hash.
 */

/** An entry's place in the map, its links and its size; the links belong to the map, the size changes through `resize`. */
export interface LruEntry<E> {
  readonly group: string;
  readonly key: string;
  older: E | undefined;
  newer: E | undefined;
  /** The entry's estimated size, counted against the byte bounds. */
  bytes: number;
}

export interface LruBounds {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly maxEntriesPerGroup: number;
  readonly maxBytesPerGroup: number;
}

class Group<E> {
  readonly entries = new Map<string, E>();
  oldest: E | undefined = undefined;
  newest: E | undefined = undefined;
  bytes = 0;
  /** The larger of entries / maxEntries and bytes / maxBytes. */
  share = 0;
  /** Where the group is in the map's heap. */
  at = 0;
  constructor(readonly name: string) {}
}

export class LruMap<E extends LruEntry<E>> {
  readonly bounds: LruBounds;
  readonly #groups = new Map<string, Group<E>>();
  /** The group of the last lookup: most maps hold one group (a store without tenants), every save asks for it. */
  #recent: Group<E> | undefined = undefined;
  /** The groups, as a max-heap by share. */
  readonly #heap: Group<E>[] = [];
  readonly #evicted: ((entry: E) => void) | undefined;
  #size = 0;
  #bytes = 0;

  /** `evicted` hears of every entry the map drops on its own (not of `delete`). */
  constructor(bounds: LruBounds, evicted?: (entry: E) => void) {
    this.bounds = bounds;
    this.#evicted = evicted;
  }

  get size(): number {
    return this.#size;
  }

  /** The estimated bytes of every entry. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The number of entries and their bytes in one group. */
  usage(group: string): { entries: number; bytes: number } {
    const g = this.#group(group);
    return { entries: g?.entries.size ?? 0, bytes: g?.bytes ?? 0 };
  }

  /** The entry, without making it more recent. */
  get(group: string, key: string): E | undefined {
    return this.#group(group)?.entries.get(key);
  }

  /** The entry, made the newest of its group; undefined (and nothing changed) when there is none. */
  touch(group: string, key: string): E | undefined {
    const g = this.#group(group);
    const entry = g?.entries.get(key);
    if (g && entry && entry !== g.newest) {
      unlink(g, entry);
      append(g, entry);
    }
    return entry;
  }

  /**
   * Adds the entry as the newest of its group and evicts past the bounds;
   * when one with its (group, key) is there already, changes nothing and
   * answers that one.
   */
  add(entry: E): E | undefined {
    let g = this.#group(entry.group);
    if (!g) {
      g = new Group<E>(entry.group);
      this.#groups.set(entry.group, g);
      g.at = this.#heap.push(g) - 1;
    }
    const present = g.entries.get(entry.key);
    if (present) return present;
    g.entries.set(entry.key, entry);
    append(g, entry);
    this.#size++;
    this.#bytes += entry.bytes;
    g.bytes += entry.bytes;
    this.#reshare(g);
    this.#evictPast(g, entry);
    return undefined;
  }

  /** Sets the entry's size, then evicts past the bounds (never the entry itself). */
  resize(entry: E, bytes: number): void {
    const g = this.#group(entry.group);
    if (!g || !holds(g, entry) || bytes === entry.bytes) {
      entry.bytes = bytes;
      return;
    }
    this.#bytes += bytes - entry.bytes;
    g.bytes += bytes - entry.bytes;
    entry.bytes = bytes;
    this.#reshare(g);
    this.#evictPast(g, entry);
  }

  delete(group: string, key: string): void {
    const g = this.#group(group);
    const entry = g?.entries.get(key);
    if (g && entry) this.#remove(g, entry);
  }

  /** Drops an entry the group holds; the group too when it empties. */
  #remove(g: Group<E>, entry: E): void {
    g.entries.delete(entry.key);
    unlink(g, entry);
    this.#size--;
    this.#bytes -= entry.bytes;
    g.bytes -= entry.bytes;
    if (g.entries.size > 0) {
      this.#reshare(g);
      return;
    }
    this.#groups.delete(g.name);
    if (this.#recent === g) this.#recent = undefined;
    const last = this.#heap.pop() as Group<E>;
    if (last !== g) {
      this.#heap[g.at] = last;
      last.at = g.at;
      this.#siftUp(last);
      this.#siftDown(last);
    }
  }

  /** The entries of one group, from the least to the most recently written. */
  *values(group: string): Generator<E> {
    for (let entry = this.oldest(group); entry; entry = entry.newer) yield entry;
  }

  /** The least recently written entry of the group; its `newer` links lead through the rest. */
  oldest(group: string): E | undefined {
    return this.#groups.get(group)?.oldest;
  }

  #group(name: string): Group<E> | undefined {
    const recent = this.#recent;
    if (recent !== undefined && recent.name === name) return recent;
    const g = this.#groups.get(name);
    if (g) this.#recent = g;
    return g;
  }

  #evictPast(writing: Group<E>, written: E): void {
    const { maxEntries, maxBytes, maxEntriesPerGroup, maxBytesPerGroup } = this.bounds;
    for (;;) {
      let from: Group<E>;
      if (writing.entries.size > maxEntriesPerGroup || writing.bytes > maxBytesPerGroup) from = writing;
      else if (this.#size > maxEntries || this.#bytes > maxBytes) {
        const top = this.#heap[0] as Group<E>;
        from = writing.share >= top.share ? writing : top;
      } else return;
      const victim = from.oldest as E;
      if (victim === written) return;
      this.#remove(from, victim);
      this.#evicted?.(victim);
    }
  }

  #reshare(g: Group<E>): void {
    const share = Math.max(g.entries.size / this.bounds.maxEntries, g.bytes / this.bounds.maxBytes);
    const grew = share > g.share;
    g.share = share;
    if (grew) this.#siftUp(g);
    else this.#siftDown(g);
  }

  #siftUp(g: Group<E>): void {
    const heap = this.#heap;
    while (g.at > 0) {
      const parent = heap[(g.at - 1) >> 1] as Group<E>;
      if (parent.share >= g.share) return;
      this.#swap(parent, g);
    }
  }

  #siftDown(g: Group<E>): void {
    const heap = this.#heap;
    for (;;) {
      const left = heap[2 * g.at + 1];
      const right = heap[2 * g.at + 2];
      const larger = right && left && right.share > left.share ? right : left;
      if (!larger || larger.share <= g.share) return;
      this.#swap(g, larger);
    }
  }

  /** Swaps a group with its child in the heap. */
  #swap(upper: Group<E>, lower: Group<E>): void {
    const at = upper.at;
    upper.at = lower.at;
    lower.at = at;
    this.#heap[upper.at] = upper;
    this.#heap[lower.at] = lower;
  }
}

function append<E extends LruEntry<E>>(g: Group<E>, entry: E): void {
  entry.older = g.newest;
  entry.newer = undefined;
  if (g.newest) g.newest.newer = entry;
  else g.oldest = entry;
  g.newest = entry;
}

/** Whether the entry is one of the group's: every entry the group holds is linked, or its only one. */
function holds<E extends LruEntry<E>>(g: Group<E>, entry: E): boolean {
  return entry.newer !== undefined || g.newest === entry;
}

function unlink<E extends LruEntry<E>>(g: Group<E>, entry: E): void {
  if (entry.older) entry.older.newer = entry.newer;
  else g.oldest = entry.newer;
  if (entry.newer) entry.newer.older = entry.older;
  else g.newest = entry.older;
  entry.older = undefined;
  entry.newer = undefined;
}
