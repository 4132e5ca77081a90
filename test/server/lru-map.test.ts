/** The stores' LRU-by-write map: eviction order across groups, refresh on write only, unlinking anywhere. */
import { describe, expect, it } from "vitest";
import { type LruEntry, LruMap } from "../../src/server/lru-map.js";

interface Entry extends LruEntry<Entry> {
  value: number;
}

const entry = (group: string, key: string, value: number): Entry => ({
  group,
  key,
  value,
  older: undefined,
  newer: undefined,
});
/** Writes a value as the stores do: the entry there made newest and changed, or a new one added. */
function set(map: LruMap<Entry>, group: string, key: string, value: number): void {
  const present = map.touch(group, key);
  if (present) present.value = value;
  else map.add(entry(group, key, value));
}

const keys = (map: LruMap<Entry>) => [...map.entries()].map((e) => `${e.group}/${e.key}`);
const triples = (entries: Iterable<Entry>) => [...entries].map((e) => [e.group, e.key, e.value]);

describe("LruMap", () => {
  it("evicts the least recently written entry of any group past its capacity; get does not refresh, add and touch do", () => {
    const map = new LruMap<Entry>(3);
    set(map, "g", "a", 1);
    set(map, "h", "b", 2);
    set(map, "g", "c", 3);
    expect(map.get("g", "a")?.value).toBe(1);
    set(map, "h", "d", 4);
    expect(map.get("g", "a")).toBeUndefined();
    set(map, "h", "b", 20);
    set(map, "g", "e", 5);
    expect(keys(map)).toEqual(["h/d", "h/b", "g/e"]);
    expect(map.get("h", "b")?.value).toBe(20);
    expect(map.get("g", "b")).toBeUndefined();
    expect(map.size).toBe(3);
  });

  it("add keeps an entry already there, answers it, and does not refresh it", () => {
    const map = new LruMap<Entry>(2);
    const first = entry("g", "a", 1);
    expect(map.add(first)).toBeUndefined();
    map.add(entry("g", "b", 2));
    expect(map.add(entry("g", "a", 10))).toBe(first);
    expect(map.get("g", "a")?.value).toBe(1);
    map.add(entry("g", "c", 3));
    expect(keys(map)).toEqual(["g/b", "g/c"]);
  });

  it("touch makes an entry the newest and returns it; a missing entry changes nothing", () => {
    const map = new LruMap<Entry>(2);
    set(map, "g", "a", 1);
    set(map, "g", "b", 2);
    expect(map.touch("g", "a")?.value).toBe(1);
    expect(map.touch("g", "missing")).toBeUndefined();
    set(map, "g", "c", 3);
    expect(keys(map)).toEqual(["g/a", "g/c"]);
  });

  it("keeps groups apart and lists one group's values in write order", () => {
    const map = new LruMap<Entry>(10);
    set(map, "g", "x", 1);
    set(map, "h", "x", 2);
    set(map, "g", "y", 3);
    set(map, "g", "x", 4);
    expect([...map.values("g")].map((e) => e.value)).toEqual([3, 4]);
    expect([...map.values("h")].map((e) => e.value)).toEqual([2]);
    expect([...map.values("none")]).toEqual([]);
  });

  it("rewriting the newest entry keeps the order and replaces the value", () => {
    const map = new LruMap<Entry>(2);
    set(map, "g", "a", 1);
    set(map, "g", "b", 2);
    set(map, "g", "b", 3);
    expect(triples(map.entries())).toEqual([
      ["g", "a", 1],
      ["g", "b", 3],
    ]);
  });

  it("deletes the oldest, the newest and a middle entry, and keeps evicting in order afterwards", () => {
    const map = new LruMap<Entry>(4);
    for (const [i, k] of ["a", "b", "c", "d"].entries()) set(map, "g", k, i);
    map.delete("g", "b");
    map.delete("g", "a");
    map.delete("g", "d");
    map.delete("g", "missing");
    map.delete("missing", "c");
    expect(keys(map)).toEqual(["g/c"]);
    set(map, "g", "e", 5);
    set(map, "h", "f", 6);
    set(map, "g", "g", 7);
    set(map, "h", "h", 8);
    expect(keys(map)).toEqual(["g/e", "h/f", "g/g", "h/h"]);
    for (const [group, key] of [
      ["h", "h"],
      ["g", "e"],
      ["h", "f"],
      ["g", "g"],
    ] as const)
      map.delete(group, key);
    expect(map.size).toBe(0);
    expect(keys(map)).toEqual([]);
    set(map, "g", "i", 9);
    expect(keys(map)).toEqual(["g/i"]);
  });

  it("holds a capacity's worth of entries through many more writes than the capacity", () => {
    const map = new LruMap<Entry>(1_000);
    for (let i = 0; i < 50_000; i++) set(map, `g${i % 3}`, String(i), i);
    expect(map.size).toBe(1_000);
    expect(triples([map.entries().next().value as Entry])).toEqual([["g1", "49000", 49_000]]);
    expect(map.get("g0", "48999")).toBeUndefined();
  });
});
