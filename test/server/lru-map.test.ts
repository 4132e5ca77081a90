/** The stores' LRU-by-write map: eviction order across groups, refresh on write only, unlinking anywhere. */
import { describe, expect, it } from "vitest";
import { LruMap } from "../../src/server/lru-map.js";

const keys = (map: LruMap<number>) => [...map.entries()].map(([group, key]) => `${group}/${key}`);

describe("LruMap", () => {
  it("evicts the least recently written entry of any group past its capacity; get does not refresh, set does", () => {
    const map = new LruMap<number>(3);
    map.set("g", "a", 1);
    map.set("h", "b", 2);
    map.set("g", "c", 3);
    expect(map.get("g", "a")).toBe(1);
    map.set("h", "d", 4);
    expect(map.get("g", "a")).toBeUndefined();
    map.set("h", "b", 20);
    map.set("g", "e", 5);
    expect(keys(map)).toEqual(["h/d", "h/b", "g/e"]);
    expect(map.get("h", "b")).toBe(20);
    expect(map.get("g", "b")).toBeUndefined();
    expect(map.size).toBe(3);
  });

  it("keeps groups apart and lists one group's values in write order", () => {
    const map = new LruMap<number>(10);
    map.set("g", "x", 1);
    map.set("h", "x", 2);
    map.set("g", "y", 3);
    map.set("g", "x", 4);
    expect([...map.values("g")]).toEqual([3, 4]);
    expect([...map.values("h")]).toEqual([2]);
    expect([...map.values("none")]).toEqual([]);
  });

  it("rewriting the newest entry keeps the order and replaces the value", () => {
    const map = new LruMap<number>(2);
    map.set("g", "a", 1);
    map.set("g", "b", 2);
    map.set("g", "b", 3);
    expect([...map.entries()]).toEqual([
      ["g", "a", 1],
      ["g", "b", 3],
    ]);
  });

  it("deletes the oldest, the newest and a middle entry, and keeps evicting in order afterwards", () => {
    const map = new LruMap<number>(4);
    for (const [i, k] of ["a", "b", "c", "d"].entries()) map.set("g", k, i);
    map.delete("g", "b");
    map.delete("g", "a");
    map.delete("g", "d");
    map.delete("g", "missing");
    map.delete("missing", "c");
    expect(keys(map)).toEqual(["g/c"]);
    map.set("g", "e", 5);
    map.set("h", "f", 6);
    map.set("g", "g", 7);
    map.set("h", "h", 8);
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
    map.set("g", "i", 9);
    expect(keys(map)).toEqual(["g/i"]);
  });

  it("holds a capacity's worth of entries through many more writes than the capacity", () => {
    const map = new LruMap<number>(1_000);
    for (let i = 0; i < 50_000; i++) map.set(`g${i % 3}`, String(i), i);
    expect(map.size).toBe(1_000);
    expect(map.entries().next().value).toEqual(["g1", "49000", 49_000]);
    expect(map.get("g0", "48999")).toBeUndefined();
  });
});
