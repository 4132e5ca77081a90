/** The stores' LRU-by-write map: eviction order, refresh on write only, unlinking anywhere in the list. */
import { describe, expect, it } from "vitest";
import { LruMap } from "../../src/server/lru-map.js";

const keys = (map: LruMap<string, number>) => [...map.entries()].map(([k]) => k);

describe("LruMap", () => {
  it("evicts the least recently written entry past its capacity; get does not refresh, set does", () => {
    const map = new LruMap<string, number>(3);
    map.set("a", 1);
    map.set("b", 2);
    map.set("c", 3);
    expect(map.get("a")).toBe(1);
    map.set("d", 4);
    expect(map.get("a")).toBeUndefined();
    map.set("b", 20);
    map.set("e", 5);
    expect(keys(map)).toEqual(["d", "b", "e"]);
    expect(map.get("b")).toBe(20);
    expect(map.size).toBe(3);
  });

  it("rewriting the newest entry keeps the order and replaces the value", () => {
    const map = new LruMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    map.set("b", 3);
    expect([...map.entries()]).toEqual([
      ["a", 1],
      ["b", 3],
    ]);
  });

  it("deletes the oldest, the newest and a middle entry, and keeps evicting in order afterwards", () => {
    const map = new LruMap<string, number>(4);
    for (const [i, k] of ["a", "b", "c", "d"].entries()) map.set(k, i);
    map.delete("b");
    map.delete("a");
    map.delete("d");
    map.delete("missing");
    expect(keys(map)).toEqual(["c"]);
    map.set("e", 5);
    map.set("f", 6);
    map.set("g", 7);
    map.set("h", 8);
    expect(keys(map)).toEqual(["e", "f", "g", "h"]);
    map.delete("h");
    map.delete("e");
    map.delete("f");
    map.delete("g");
    expect(map.size).toBe(0);
    expect(keys(map)).toEqual([]);
    map.set("i", 9);
    expect(keys(map)).toEqual(["i"]);
  });

  it("holds a capacity's worth of entries through many more writes than the capacity", () => {
    const map = new LruMap<number, number>(1_000);
    for (let i = 0; i < 50_000; i++) map.set(i, i);
    expect(map.size).toBe(1_000);
    expect(map.entries().next().value).toEqual([49_000, 49_000]);
    expect(map.get(48_999)).toBeUndefined();
  });
});
