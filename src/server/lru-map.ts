/**
 * A map from (group, key) to entries, capped at `capacity` entries, that
 * evicts the least recently written entry across all groups: `add` and
 * `touch` make an entry the newest, `get` does not. Entries are kept in a
 * doubly linked list beside the index, so every operation is O(1).
 *
 * The entries are the caller's own objects (a store's records), carrying
 * their links: a stored item costs one object, not a record plus a list node.
 *
 * Why not one `Map` keyed by a string joining group and key: a `Map` used as
 * its own LRU (delete, re-insert, evict `keys().next()`) is not O(1) in V8,
 * as deleted entries stay in the table until it is rehashed and the iterator
 * steps over each of them (~7 µs per save at 10,000 tasks); and a joined key
 * is a new string on every call, which V8 flattens and hashes again each
 * time, where the parts (a task id, a scope) are the same strings every time
 * and keep their hash.
 */

/** An entry's place in the map and its links; the links belong to the map. */
export interface LruEntry<E> {
  readonly group: string;
  readonly key: string;
  older: E | undefined;
  newer: E | undefined;
}

export class LruMap<E extends LruEntry<E>> {
  readonly capacity: number;
  readonly #groups = new Map<string, Map<string, E>>();
  #size = 0;
  #oldest: E | undefined;
  #newest: E | undefined;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get size(): number {
    return this.#size;
  }

  /** The entry, without making it more recent. */
  get(group: string, key: string): E | undefined {
    return this.#groups.get(group)?.get(key);
  }

  /** The entry, made the newest; undefined (and nothing changed) when there is none. */
  touch(group: string, key: string): E | undefined {
    const entry = this.#groups.get(group)?.get(key);
    if (entry && entry !== this.#newest) {
      this.#unlink(entry);
      this.#append(entry);
    }
    return entry;
  }

  /**
   * Adds the entry as the newest and evicts the oldest past the capacity;
   * when one with its (group, key) is there already, changes nothing and
   * answers that one.
   */
  add(entry: E): E | undefined {
    let entries = this.#groups.get(entry.group);
    if (!entries) {
      entries = new Map();
      this.#groups.set(entry.group, entries);
    }
    const present = entries.get(entry.key);
    if (present) return present;
    entries.set(entry.key, entry);
    this.#size++;
    this.#append(entry);
    if (this.#size > this.capacity) {
      const oldest = this.#oldest as E;
      this.delete(oldest.group, oldest.key);
    }
    return undefined;
  }

  delete(group: string, key: string): void {
    const entries = this.#groups.get(group);
    const entry = entries?.get(key);
    if (!entries || !entry) return;
    entries.delete(key);
    if (entries.size === 0) this.#groups.delete(group);
    this.#size--;
    this.#unlink(entry);
  }

  /** The entries of one group, from the least to the most recently written. */
  *values(group: string): Generator<E> {
    if (!this.#groups.has(group)) return;
    for (let entry = this.#oldest; entry; entry = entry.newer) if (entry.group === group) yield entry;
  }

  /** Every entry, from the least to the most recently written. */
  *entries(): Generator<E> {
    for (let entry = this.#oldest; entry; entry = entry.newer) yield entry;
  }

  #append(entry: E): void {
    entry.older = this.#newest;
    entry.newer = undefined;
    if (this.#newest) this.#newest.newer = entry;
    else this.#oldest = entry;
    this.#newest = entry;
  }

  #unlink(entry: E): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.#newest = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }
}
