/**
 * The stores' bounded LRU-by-write map: write order within a group, refresh on
 * write only, per-group quotas, and the store-wide bounds enforced on the
 * group with the largest share, so one group's writes never evict a smaller
 * group's entries.
 */
import { describe, expect, it } from "vitest";
import { type LruBounds, type LruEntry, LruMap } from "../../src/server/lru-map.js";

interface Entry extends LruEntry<Entry> {
  value: number;
}

const entry = (group: string, key: string, value: number, bytes = 0): Entry => ({
  group,
  key,
  value,
  bytes,
  older: undefined,
  newer: undefined,
});

const bounds = (init: Partial<LruBounds>): LruBounds => ({
  maxEntries: 1_000_000,
  maxBytes: 1e12,
  maxEntriesPerGroup: 1_000_000,
  maxBytesPerGroup: 1e12,
  ...init,
});

/** Writes a value as the stores do: the entry there made newest and changed, or a new one added. */
function set(map: LruMap<Entry>, group: string, key: string, value: number, bytes = 0): void {
  const present = map.touch(group, key);
  if (!present) {
    map.add(entry(group, key, value, bytes));
    return;
  }
  present.value = value;
  map.resize(present, bytes);
}

const keys = (map: LruMap<Entry>, group: string) => [...map.values(group)].map((e) => e.key);

describe("LruMap", () => {
  it("evicts the least recently written entry of a group past its bound; get does not refresh, add and touch do", () => {
    const evicted: string[] = [];
    const map = new LruMap<Entry>(bounds({ maxEntries: 3 }), (e) => evicted.push(e.key));
    set(map, "g", "a", 1);
    set(map, "g", "b", 2);
    set(map, "g", "c", 3);
    expect(map.get("g", "a")?.value).toBe(1);
    set(map, "g", "d", 4);
    expect(map.get("g", "a")).toBeUndefined();
    set(map, "g", "b", 20);
    set(map, "g", "e", 5);
    expect(keys(map, "g")).toEqual(["d", "b", "e"]);
    expect(map.get("g", "b")?.value).toBe(20);
    expect(evicted).toEqual(["a", "c"]);
    expect(map.size).toBe(3);
  });

  it("add keeps an entry already there, answers it, and does not refresh it", () => {
    const map = new LruMap<Entry>(bounds({ maxEntries: 2 }));
    const first = entry("g", "a", 1);
    expect(map.add(first)).toBeUndefined();
    map.add(entry("g", "b", 2));
    expect(map.add(entry("g", "a", 10))).toBe(first);
    expect(map.get("g", "a")?.value).toBe(1);
    map.add(entry("g", "c", 3));
    expect(keys(map, "g")).toEqual(["b", "c"]);
  });

  it("touch makes an entry the newest and returns it; a missing entry changes nothing", () => {
    const map = new LruMap<Entry>(bounds({ maxEntries: 2 }));
    set(map, "g", "a", 1);
    set(map, "g", "b", 2);
    expect(map.touch("g", "a")?.value).toBe(1);
    expect(map.touch("g", "missing")).toBeUndefined();
    expect(map.touch("missing", "a")).toBeUndefined();
    set(map, "g", "c", 3);
    expect(keys(map, "g")).toEqual(["a", "c"]);
  });

  it("keeps groups apart and lists one group's values in write order", () => {
    const map = new LruMap<Entry>(bounds({}));
    set(map, "g", "x", 1);
    set(map, "h", "x", 2);
    set(map, "g", "y", 3);
    set(map, "g", "x", 4);
    expect([...map.values("g")].map((e) => e.value)).toEqual([3, 4]);
    expect([...map.values("h")].map((e) => e.value)).toEqual([2]);
    expect([...map.values("none")]).toEqual([]);
  });

  it("deletes the oldest, the newest and a middle entry, and keeps evicting in order afterwards", () => {
    const map = new LruMap<Entry>(bounds({ maxEntries: 4 }));
    for (const [i, k] of ["a", "b", "c", "d"].entries()) set(map, "g", k, i, 10);
    map.delete("g", "b");
    map.delete("g", "a");
    map.delete("g", "d");
    map.delete("g", "missing");
    map.delete("missing", "c");
    expect(keys(map, "g")).toEqual(["c"]);
    expect(map.bytes).toBe(10);
    for (const k of ["e", "f", "g", "h"]) set(map, "g", k, 0, 10);
    expect(keys(map, "g")).toEqual(["e", "f", "g", "h"]);
    for (const k of ["h", "e", "f", "g"]) map.delete("g", k);
    expect(map.size).toBe(0);
    expect(map.bytes).toBe(0);
    set(map, "g", "i", 9);
    expect(keys(map, "g")).toEqual(["i"]);
  });

  it("resizes only the entries it holds: the only, the oldest and the newest of a group count, a removed one does not", () => {
    const evicted: Entry[] = [];
    const map = new LruMap<Entry>(bounds({ maxEntries: 2 }), (e) => evicted.push(e));
    set(map, "g", "a", 0, 10);
    map.resize(map.get("g", "a") as Entry, 11);
    expect(map.bytes).toBe(11);
    set(map, "g", "b", 0, 20);
    map.resize(map.get("g", "a") as Entry, 12);
    map.resize(map.get("g", "b") as Entry, 21);
    expect(map.usage("g")).toEqual({ entries: 2, bytes: 33 });
    const deleted = map.get("g", "b") as Entry;
    map.delete("g", "b");
    map.resize(deleted, 500);
    expect(deleted.bytes).toBe(500);
    set(map, "g", "c", 0, 30);
    set(map, "g", "d", 0, 40);
    expect(evicted.map((e) => e.key)).toEqual(["a"]);
    map.resize(evicted[0] as Entry, 900);
    expect(map.usage("g")).toEqual({ entries: 2, bytes: 70 });
    expect(map.bytes).toBe(70);
  });

  it("evicts by bytes as well as by count, and never the entry being written", () => {
    const evicted: string[] = [];
    const map = new LruMap<Entry>(bounds({ maxBytes: 100 }), (e) => evicted.push(e.key));
    set(map, "g", "a", 0, 40);
    set(map, "g", "b", 0, 40);
    set(map, "g", "c", 0, 40);
    expect(evicted).toEqual(["a"]);
    // Growing an entry evicts older ones; an entry larger than the bound stays alone until the next write.
    set(map, "g", "c", 0, 150);
    expect(evicted).toEqual(["a", "b"]);
    expect(keys(map, "g")).toEqual(["c"]);
    set(map, "g", "d", 0, 10);
    expect(keys(map, "g")).toEqual(["d"]);
    expect(map.bytes).toBe(10);
  });

  it("holds a group to its own quota without touching other groups", () => {
    const map = new LruMap<Entry>(bounds({ maxEntries: 100, maxEntriesPerGroup: 3, maxBytesPerGroup: 50 }));
    set(map, "quiet", "q", 0, 5);
    for (let i = 0; i < 10; i++) set(map, "loud", `l${i}`, i, 1);
    expect(keys(map, "loud")).toEqual(["l7", "l8", "l9"]);
    set(map, "loud", "big", 0, 49);
    expect(keys(map, "loud")).toEqual(["l9", "big"]);
    expect(keys(map, "quiet")).toEqual(["q"]);
  });

  it("makes the group with the largest share give up entries when the whole map is over a bound", () => {
    const map = new LruMap<Entry>(bounds({ maxEntries: 10, maxBytes: 1000 }));
    for (let i = 0; i < 3; i++) set(map, "small", `s${i}`, i, 1);
    // A flood by one group, far past the bound: it evicts its own entries only.
    for (let i = 0; i < 1_000; i++) set(map, "flood", `f${i}`, i, 1);
    expect(keys(map, "small")).toEqual(["s0", "s1", "s2"]);
    expect(map.size).toBe(10);
    // A few large entries give their group the largest share by bytes: it gives up entries, the many small stay.
    set(map, "heavy", "h0", 0, 600);
    set(map, "heavy", "h1", 0, 600);
    expect(keys(map, "heavy")).toEqual(["h1"]);
    expect(keys(map, "small")).toEqual(["s0", "s1", "s2"]);
    // A small group writing into a full map takes from the largest group.
    set(map, "small", "s3", 3, 1);
    expect(keys(map, "small")).toEqual(["s0", "s1", "s2", "s3"]);
  });

  it("never evicts from a group whose share is below another's, through random writes of many groups", () => {
    const max = { maxEntries: 40, maxBytes: 4_000 };
    let seed = 11;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const groups = ["a", "b", "c", "d", "e", "f", "g"];
    const share = (group: string) => {
      const values = [...map.values(group)];
      const bytes = values.reduce((sum, e) => sum + e.bytes, 0);
      return Math.max(values.length / max.maxEntries, bytes / max.maxBytes);
    };
    let writing = "";
    let victims = 0;
    const map: LruMap<Entry> = new LruMap<Entry>(bounds(max), (victim) => {
      victims++;
      if (victim.group === writing) return;
      // The victim's group, with the victim counted back in, had the largest share.
      const before = Math.max(
        ([...map.values(victim.group)].length + 1) / max.maxEntries,
        ([...map.values(victim.group)].reduce((s, e) => s + e.bytes, 0) + victim.bytes) / max.maxBytes,
      );
      for (const other of groups) expect(before).toBeGreaterThanOrEqual(share(other));
    });
    for (let step = 0; step < 5_000; step++) {
      // Skewed writers: "a" writes most, "g" least.
      writing = groups[Math.floor(next() ** 2 * groups.length)] as string;
      set(map, writing, `k${Math.floor(next() * 60)}`, step, Math.floor(next() * 300));
      expect(map.size).toBeLessThanOrEqual(max.maxEntries);
      let total = 0;
      for (const g of groups) for (const e of map.values(g)) total += e.bytes;
      expect(map.bytes).toBe(total);
    }
    expect(victims).toBeGreaterThan(100);
  });
});
