/**
 * A map from (group, key) to values, capped at `capacity` entries, that
 * evicts the least recently written entry across all groups: `set` makes an
 * entry the newest, `get` does not. Entries are kept in a doubly linked list
 * beside the index, so every operation is O(1).
 *
 * Why not one `Map` keyed by a string joining group and key: a `Map` used as
 * its own LRU (delete, re-insert, evict `keys().next()`) is not O(1) in V8,
 * as deleted entries stay in the table until it is rehashed and the iterator
 * steps over each of them (~7 µs per save at 10,000 tasks); and a joined key
 * is a new string on every call, which V8 flattens and hashes again each
 * time, where the parts (a task id, a scope) are the same strings every time
 * and keep their hash.
 */

interface Entry<V> {
  readonly group: string;
  readonly key: string;
  value: V;
  older: Entry<V> | undefined;
  newer: Entry<V> | undefined;
}

export class LruMap<V> {
  readonly capacity: number;
  readonly #groups = new Map<string, Map<string, Entry<V>>>();
  #size = 0;
  #oldest: Entry<V> | undefined;
  #newest: Entry<V> | undefined;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get size(): number {
    return this.#size;
  }

  /** The value, without making it more recent. */
  get(group: string, key: string): V | undefined {
    return this.#groups.get(group)?.get(key)?.value;
  }

  /** Inserts or replaces the value and makes it the newest; evicts the oldest past the capacity. */
  set(group: string, key: string, value: V): void {
    let entries = this.#groups.get(group);
    const entry = entries?.get(key);
    if (entry) {
      entry.value = value;
      if (entry !== this.#newest) {
        this.#unlink(entry);
        this.#append(entry);
      }
      return;
    }
    if (!entries) {
      entries = new Map();
      this.#groups.set(group, entries);
    }
    const added: Entry<V> = { group, key, value, older: undefined, newer: undefined };
    entries.set(key, added);
    this.#size++;
    this.#append(added);
    if (this.#size > this.capacity) {
      const oldest = this.#oldest as Entry<V>;
      this.delete(oldest.group, oldest.key);
    }
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
  *values(group: string): Generator<V> {
    const entries = this.#groups.get(group);
    if (!entries) return;
    for (let entry = this.#oldest; entry; entry = entry.newer) if (entry.group === group) yield entry.value;
  }

  /** Every entry as `[group, key, value]`, from the least to the most recently written. */
  *entries(): Generator<[string, string, V]> {
    for (let entry = this.#oldest; entry; entry = entry.newer) yield [entry.group, entry.key, entry.value];
  }

  #append(entry: Entry<V>): void {
    entry.older = this.#newest;
    entry.newer = undefined;
    if (this.#newest) this.#newest.newer = entry;
    else this.#oldest = entry;
    this.#newest = entry;
  }

  #unlink(entry: Entry<V>): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.#newest = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }
}
