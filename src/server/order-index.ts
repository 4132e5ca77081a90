/**
 * Entries kept in ListTasks order (status time, most recent first, then task
 * id ascending; `task-order.ts`) in a B+ tree whose nodes count the entries
 * under them, so that finding a place, counting the entries before it and
 * reading a page from it all cost O(log n + page), and an insert or a delete
 * O(log n). The in-memory task store keeps one per partition, context and
 * state (`task-index.ts`).
 *
 * The tree orders by the key an entry was inserted with: a caller changes an
 * entry's key fields only while the entry is out of the tree (delete, change,
 * insert). Separators in branches are copies of keys, never entries, so a
 * deleted entry whose key changes later cannot disturb the tree.
 *
 * Why by hand: no npm package we found has an order-statistic B+ tree.
 * `sorted-btree` keeps no counts, so a rank (the total of a filtered page,
 * the place of a cursor) would be a walk; the red-black trees that count
 * (js-sdsl with `enableIndex`) make a node object per entry and an iterator
 * per lookup, where a B+ tree holds an entry as one slot of a leaf array.
 */

/** The place of an entry in the order. Seconds are a Number: exact for every valid timestamp (years 1–9999). */
export interface OrderKey {
  readonly seconds: number;
  readonly nanos: number;
  /** The task id; `null` in a probe means "after every id at this instant". */
  readonly taskId: string | null;
}

/** Negative when `a` comes first: the later instant first, then the smaller id. */
export function compareKeys(a: OrderKey, b: OrderKey): number {
  if (a.seconds !== b.seconds) return b.seconds - a.seconds;
  if (a.nanos !== b.nanos) return b.nanos - a.nanos;
  const x = a.taskId;
  const y = b.taskId;
  if (x === y) return 0;
  if (x === null) return 1;
  if (y === null) return -1;
  return x < y ? -1 : 1;
}

/** Entries per leaf and children per branch, at most; a node below a quarter of it merges into a sibling. */
const FANOUT = 64;
const MERGE_BELOW = FANOUT / 4;

class Leaf<E extends OrderKey> {
  constructor(readonly items: E[] = []) {}
  next: Leaf<E> | undefined = undefined;
  prev: Leaf<E> | undefined = undefined;
  get size(): number {
    return this.items.length;
  }
}

class Branch<E extends OrderKey> {
  /**
   * `low[i]` is at or before every entry of `children[i]` and after every
   * entry of `children[i - 1]` (`low[0]` unused, and not kept up to date).
   */
  readonly low: OrderKey[] = [];
  readonly children: Node<E>[] = [];
  size = 0;
}

type Node<E extends OrderKey> = Leaf<E> | Branch<E>;

/**
 * `splice(at, 0, item)` without the array `splice` makes. The ends, where
 * most changes happen (new status times first, evictions last), use the
 * builtins that move the elements in one go.
 */
function insertAt<T>(items: T[], at: number, item: T): void {
  if (at === 0) items.unshift(item);
  else if (at === items.length) items.push(item);
  else {
    let i = items.length;
    items.push(item);
    for (; i > at; i--) items[i] = items[i - 1] as T;
    items[at] = item;
  }
}

/** `splice(at, 1)` without the array `splice` makes; the ends likewise. */
function removeAt<T>(items: T[], at: number): void {
  if (at === 0) items.shift();
  else if (at === items.length - 1) items.pop();
  else {
    for (let i = at + 1; i < items.length; i++) items[i - 1] = items[i] as T;
    items.pop();
  }
}

function keyOf(entry: OrderKey): OrderKey {
  return { seconds: entry.seconds, nanos: entry.nanos, taskId: entry.taskId };
}

/**
 * The first index in `items` (sorted from `from` on) at or after `from` whose
 * key is after `key` (`orEqual`), or at or after it. The ends are tried
 * first, one comparison each: a new status time sorts before every key, and
 * the task evicted is most often the last.
 */
function position(items: readonly OrderKey[], key: OrderKey, orEqual: boolean, from = 0): number {
  let hi = items.length - 1;
  if (hi < from || !goesAfter(items[from] as OrderKey, key, orEqual)) return from;
  if (goesAfter(items[hi] as OrderKey, key, orEqual)) return hi + 1;
  let lo = from + 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (goesAfter(items[mid] as OrderKey, key, orEqual)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether `key` goes after `item`: `item` comes first, or is equal (`orEqual`). */
function goesAfter(item: OrderKey, key: OrderKey, orEqual: boolean): boolean {
  const c = compareKeys(item, key);
  return c < 0 || (orEqual && c === 0);
}

/** The child of `branch` that holds the entries just before (`orEqual`: at or just before) `key`. */
function childPosition<E extends OrderKey>(branch: Branch<E>, key: OrderKey, orEqual: boolean): number {
  return position(branch.low, key, orEqual, 1) - 1;
}

/** Entries per leaf and children per branch in a tree built from a sorted run: room for a quarter more each. */
const BUILD_FILL = (FANOUT * 3) / 4;

/** `length` items cut into `ceil(length / BUILD_FILL)` runs of nearly equal length: where each starts, then `length`. */
function runStarts(length: number): number[] {
  const count = Math.ceil(length / BUILD_FILL);
  const starts: number[] = [];
  for (let i = 0; i <= count; i++) starts.push(Math.floor((i * length) / count));
  return starts;
}

export class OrderIndex<E extends OrderKey> {
  #root: Node<E> = new Leaf<E>();

  /**
   * The index of entries already in order (each before the next), built
   * bottom up in O(n): leaves and branches filled to three quarters, so the
   * inserts that follow split nothing at first.
   */
  static fromSorted<E extends OrderKey>(sorted: readonly E[]): OrderIndex<E> {
    const index = new OrderIndex<E>();
    if (sorted.length === 0) return index;
    let level: Node<E>[] = [];
    const leafStarts = runStarts(sorted.length);
    for (let run = 1; run < leafStarts.length; run++) {
      const leaf = new Leaf<E>(sorted.slice(leafStarts[run - 1], leafStarts[run]));
      const previous = level[level.length - 1] as Leaf<E> | undefined;
      leaf.prev = previous;
      if (previous) previous.next = leaf;
      level.push(leaf);
    }
    while (level.length > 1) {
      const upper: Node<E>[] = [];
      const starts = runStarts(level.length);
      for (let run = 1; run < starts.length; run++) {
        const branch = new Branch<E>();
        for (let i = starts[run - 1] as number; i < (starts[run] as number); i++) {
          const child = level[i] as Node<E>;
          branch.children.push(child);
          branch.low.push(keyOf(index.#first(child)));
          branch.size += child.size;
        }
        upper.push(branch);
      }
      level = upper;
    }
    index.#root = level[0] as Node<E>;
    return index;
  }

  get size(): number {
    return this.#root.size;
  }

  /** Adds an entry whose key is not in the tree yet. */
  insert(entry: E): void {
    const split = this.#insert(this.#root, entry);
    if (!split) return;
    const root = new Branch<E>();
    root.children.push(this.#root, split);
    root.low.push(keyOf(this.#first(this.#root)), keyOf(this.#first(split)));
    root.size = this.#root.size + split.size;
    this.#root = root;
  }

  /** Removes the entry (found by its key); false when it is not in the tree. */
  delete(entry: E): boolean {
    if (!this.#delete(this.#root, entry)) return false;
    const root = this.#root;
    if (root instanceof Branch && root.children.length === 1) this.#root = root.children[0] as Node<E>;
    return true;
  }

  /** How many entries come before `key` (`orEqual`: at or before it). */
  countBefore(key: OrderKey, orEqual: boolean): number {
    let node = this.#root;
    let count = 0;
    while (node instanceof Branch) {
      const at = childPosition(node, key, orEqual);
      for (let i = 0; i < at; i++) count += (node.children[i] as Node<E>).size;
      node = node.children[at] as Node<E>;
    }
    return count + position(node.items, key, orEqual);
  }

  /**
   * Calls `visit` with the entries from position `start` on, in order, until
   * it returns false or the entries end.
   */
  walk(start: number, visit: (entry: E) => boolean): void {
    if (start >= this.size) return;
    let node = this.#root;
    let offset = start;
    while (node instanceof Branch) {
      let i = 0;
      for (let size = (node.children[0] as Node<E>).size; offset >= size; size = (node.children[++i] as Node<E>).size) {
        offset -= size;
      }
      node = node.children[i] as Node<E>;
    }
    for (let leaf: Leaf<E> | undefined = node; leaf; leaf = leaf.next, offset = 0) {
      const items = leaf.items;
      for (let i = offset; i < items.length; i++) if (!visit(items[i] as E)) return;
    }
  }

  /** The entries from position `start` up to `end` (exclusive). */
  slice(start: number, end: number): E[] {
    const out: E[] = [];
    if (end > start) this.walk(start, (entry) => out.push(entry) < end - start);
    return out;
  }

  #first(node: Node<E>): E {
    let at = node;
    while (at instanceof Branch) at = at.children[0] as Node<E>;
    return at.items[0] as E;
  }

  /** Inserts under `node`; answers the new right sibling when `node` split. */
  #insert(node: Node<E>, entry: E): Node<E> | undefined {
    if (node instanceof Leaf) {
      insertAt(node.items, position(node.items, entry, false), entry);
      if (node.items.length <= FANOUT) return undefined;
      const right = new Leaf<E>();
      for (const item of node.items.splice(FANOUT / 2)) right.items.push(item);
      right.next = node.next;
      right.prev = node;
      if (node.next) node.next.prev = right;
      node.next = right;
      return right;
    }
    const at = childPosition(node, entry, true);
    node.size++;
    const split = this.#insert(node.children[at] as Node<E>, entry);
    if (!split) return undefined;
    node.children.splice(at + 1, 0, split);
    node.low.splice(at + 1, 0, keyOf(this.#first(split)));
    if (node.children.length <= FANOUT) return undefined;
    const right = new Branch<E>();
    for (const child of node.children.splice(FANOUT / 2)) {
      right.children.push(child);
      right.size += child.size;
    }
    for (const low of node.low.splice(FANOUT / 2)) right.low.push(low);
    node.size -= right.size;
    return right;
  }

  #delete(node: Node<E>, entry: E): boolean {
    if (node instanceof Leaf) {
      const last = node.items.length - 1;
      // The last is the likeliest: an eviction takes the least recent write, most often the oldest status time.
      const at = node.items[last] === entry ? last : position(node.items, entry, false);
      if (node.items[at] !== entry) return false;
      removeAt(node.items, at);
      return true;
    }
    const at = childPosition(node, entry, true);
    const child = node.children[at] as Node<E>;
    if (!this.#delete(child, entry)) return false;
    node.size--;
    if (child.size < MERGE_BELOW) this.#mergeAway(node, at);
    return true;
  }

  /** Folds a small child into a sibling when both fit in one node (or drops it when empty). */
  #mergeAway(parent: Branch<E>, at: number): void {
    const child = parent.children[at] as Node<E>;
    const width = (node: Node<E>) => (node instanceof Leaf ? node.items.length : node.children.length);
    const into =
      at > 0 && width(parent.children[at - 1] as Node<E>) + width(child) <= FANOUT
        ? at - 1
        : at + 1 < parent.children.length && width(parent.children[at + 1] as Node<E>) + width(child) <= FANOUT
          ? at + 1
          : -1;
    if (into < 0 && child.size > 0) return;
    if (child instanceof Leaf) {
      if (into === at - 1) (parent.children[into] as Leaf<E>).items.push(...child.items);
      else if (into === at + 1) (parent.children[into] as Leaf<E>).items.unshift(...child.items);
      if (child.prev) child.prev.next = child.next;
      if (child.next) child.next.prev = child.prev;
    } else if (into >= 0) {
      const sibling = parent.children[into] as Branch<E>;
      if (into === at - 1) {
        sibling.children.push(...child.children);
        sibling.low.push(...child.low);
      } else {
        sibling.children.unshift(...child.children);
        sibling.low.unshift(...child.low);
      }
      sibling.size += child.size;
    }
    parent.children.splice(at, 1);
    // The merged node now starts where the removed one did: keep the earlier bound.
    const [low] = parent.low.splice(at, 1);
    if (into === at + 1 && low) parent.low[at] = low;
  }
}
