/** The stores' LRU-by-write map: eviction order across groups, refresh on write only, unlinking anywhere. */
import { describe, expect, it } from "vitest";
import { type LruEntry, LruMap } from "../../src/server/lru-map.js";

interface Entry extends LruEntry<Entry> {
  readonly value: number;
}

const entry = (group: string, key: string, value: number): Entry => ({
  group,
  key,
  value,
  older: undefined,
  newer: undefined,
});
const keys = (map: LruMap<Entry>) => [...map.entries()].map((e) => `${e.group}/${e.key}`);
const triples = (entries: Iterable<Entry>) => [...entries].map((e) => [e.group, e.key, e.value]);

describe("LruMap", () => {
  it("evicts the least recently written entry of any group past its capacity; get does not refresh, insert and touch do", () => {
    const map = new LruMap<Entry>(3);
    map.insert(entry("g", "a", 1));
    map.insert(entry("h", "b", 2));
    map.insert(entry("g", "c", 3));
    expect(map.get("g", "a")?.value).toBe(1);
    map.insert(entry("h", "d", 4));
    expect(map.get("g", "a")).toBeUndefined();
    map.insert(entry("h", "b", 20));
    map.insert(entry("g", "e", 5));
    expect(keys(map)).toEqual(["h/d", "h/b", "g/e"]);
    expect(map.get("h", "b")?.value).toBe(20);
    expect(map.get("g", "b")).toBeUndefined();
    expect(map.size).toBe(3);
  });

  it("touch makes an entry the newest and returns it; a missing entry changes nothing", () => {
    const map = new LruMap<Entry>(2);
    map.insert(entry("g", "a", 1));
    map.insert(entry("g", "b", 2));
    expect(map.touch("g", "a")?.value).toBe(1);
    expect(map.touch("g", "missing")).toBeUndefined();
    map.insert(entry("g", "c", 3));
    expect(keys(map)).toEqual(["g/a", "g/c"]);
  });

  it("keeps groups apart and lists one group's values in write order", () => {
    const map = new LruMap<Entry>(10);
    map.insert(entry("g", "x", 1));
    map.insert(entry("h", "x", 2));
    map.insert(entry("g", "y", 3));
    map.insert(entry("g", "x", 4));
    expect([...map.values("g")].map((e) => e.value)).toEqual([3, 4]);
    expect([...map.values("h")].map((e) => e.value)).toEqual([2]);
    expect([...map.values("none")]).toEqual([]);
  });

  it("rewriting the newest entry keeps the order and replaces the value", () => {
    const map = new LruMap<Entry>(2);
    map.insert(entry("g", "a", 1));
    map.insert(entry("g", "b", 2));
    map.insert(entry("g", "b", 3));
    expect(triples(map.entries())).toEqual([
      ["g", "a", 1],
      ["g", "b", 3],
    ]);
  });

  it("deletes the oldest, the newest and a middle entry, and keeps evicting in order afterwards", () => {
    const map = new LruMap<Entry>(4);
    for (const [i, k] of ["a", "b", "c", "d"].entries()) map.insert(entry("g", k, i));
    map.delete("g", "b");
    map.delete("g", "a");
    map.delete("g", "d");
    map.delete("g", "missing");
    map.delete("missing", "c");
    expect(keys(map)).toEqual(["g/c"]);
    map.insert(entry("g", "e", 5));
    map.insert(entry("h", "f", 6));
    map.insert(entry("g", "g", 7));
    map.insert(entry("h", "h", 8));
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
    map.insert(entry("g", "i", 9));
    expect(keys(map)).toEqual(["g/i"]);
  });

  it("holds a capacity's worth of entries through many more writes than the capacity", () => {
    const map = new LruMap<Entry>(1_000);
    for (let i = 0; i < 50_000; i++) map.insert(entry(`g${i % 3}`, String(i), i));
    expect(map.size).toBe(1_000);
    expect(triples([map.entries().next().value as Entry])).toEqual([["g1", "49000", 49_000]]);
    expect(map.get("g0", "48999")).toBeUndefined();
  });
});
