/** The counted B+ tree behind ListTasks: order, ranks and walks held against a sorted array through random edits. */
import { describe, expect, it } from "vitest";
import { compareKeys, OrderIndex, type OrderKey } from "../../src/server/order-index.js";

interface Entry extends OrderKey {
  seconds: number;
  nanos: number;
  taskId: string;
}

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ids = (entries: readonly Entry[]) => entries.map((e) => e.taskId);

function contents(index: OrderIndex<Entry>): Entry[] {
  return index.slice(0, index.size);
}

describe("OrderIndex", () => {
  it("keeps the ListTasks order: later instants first, equal instants by id, to the nanosecond", () => {
    const index = new OrderIndex<Entry>();
    for (const e of [
      { seconds: 2, nanos: 0, taskId: "b" },
      { seconds: 2, nanos: 0, taskId: "a" },
      { seconds: 3, nanos: 0, taskId: "c" },
      { seconds: 2, nanos: 500, taskId: "e" },
      { seconds: -1, nanos: 0, taskId: "neg" },
      { seconds: 0, nanos: 0, taskId: "epoch" },
    ])
      index.insert(e);
    expect(ids(contents(index))).toEqual(["c", "e", "a", "b", "epoch", "neg"]);
    expect(index.countBefore({ seconds: 2, nanos: 0, taskId: null }, false)).toBe(4);
    expect(index.countBefore({ seconds: 2, nanos: 0, taskId: "a" }, false)).toBe(2);
    expect(index.countBefore({ seconds: 2, nanos: 0, taskId: "a" }, true)).toBe(3);
  });

  it("agrees with a sorted array through 30,000 random inserts, deletes and re-keyings, with ties", () => {
    const next = random(7);
    const index = new OrderIndex<Entry>();
    const live = new Map<string, Entry>();
    for (let step = 0; step < 30_000; step++) {
      const id = `t${Math.floor(next() * 8000)}`;
      const present = live.get(id);
      const roll = next();
      if (present && roll < 0.3) {
        expect(index.delete(present)).toBe(true);
        live.delete(id);
      } else if (present) {
        // A status update: out of the tree, new key (often "now", sometimes a tie), back in.
        expect(index.delete(present)).toBe(true);
        present.seconds = roll < 0.6 ? 1000 + step : Math.floor(next() * 50);
        present.nanos = Math.floor(next() * 3);
        index.insert(present);
      } else {
        const entry = { seconds: Math.floor(next() * 50), nanos: Math.floor(next() * 3), taskId: id };
        index.insert(entry);
        live.set(id, entry);
      }
      if (step % 997 === 0 || step === 29_999) {
        const expected = [...live.values()].sort(compareKeys);
        expect(index.size).toBe(expected.length);
        expect(ids(contents(index))).toEqual(ids(expected));
        for (let probe = 0; probe < 20; probe++) {
          const key: OrderKey = {
            seconds: Math.floor(next() * 52),
            nanos: Math.floor(next() * 3),
            taskId: next() < 0.3 ? null : `t${Math.floor(next() * 8000)}`,
          };
          const before = expected.filter((e) => compareKeys(e, key) < 0).length;
          const through = expected.filter((e) => compareKeys(e, key) <= 0).length;
          expect(index.countBefore(key, false)).toBe(before);
          expect(index.countBefore(key, true)).toBe(through);
          expect(ids(index.slice(before, before + 7))).toEqual(ids(expected.slice(before, before + 7)));
        }
      }
    }
  });

  it("keeps the order when new keys come first and the oldest leaves, also after the clock steps back", () => {
    // The store's pattern: each new task sorts first (the newest status time) and the least recently added one
    // leaves, most often the last key; a clock stepped back puts new keys in the middle and the leaving ones too.
    const index = new OrderIndex<Entry>();
    const added: Entry[] = [];
    let now = 100_000;
    for (let step = 0; step < 20_000; step++) {
      now += step % 1_000 === 999 ? -5_000 : step % 3 === 0 ? 0 : 1;
      const entry = { seconds: now, nanos: 0, taskId: `t${(step * 7_919) % 20_000}` };
      index.insert(entry);
      added.push(entry);
      if (added.length > 3_000) expect(index.delete(added.shift() as Entry)).toBe(true);
      if (step % 1_999 === 0 || step === 19_999) {
        expect(ids(contents(index))).toEqual(ids([...added].sort(compareKeys)));
        const probe = added[Math.floor(added.length / 2)] as Entry;
        expect(index.countBefore(probe, false)).toBe(added.filter((e) => compareKeys(e, probe) < 0).length);
      }
    }
  });

  it("builds from a sorted run of any length, then agrees with a sorted array through inserts and deletes down to none", () => {
    const next = random(5);
    for (const length of [0, 1, 48, 49, 64, 65, 97, 3_073, 20_000]) {
      const live = Array.from({ length }, (_, i) => ({
        seconds: Math.floor(next() * 500),
        nanos: 0,
        taskId: `b${i}`,
      })).sort(compareKeys);
      const index = OrderIndex.fromSorted(live);
      const check = () => {
        live.sort(compareKeys);
        expect(index.size).toBe(live.length);
        expect(ids(contents(index))).toEqual(ids(live));
        const probe = { seconds: Math.floor(next() * 500), nanos: 0, taskId: null };
        const before = live.filter((e) => compareKeys(e, probe) < 0).length;
        expect(index.countBefore(probe, false)).toBe(before);
        expect(ids(index.slice(before, before + 5))).toEqual(ids(live.slice(before, before + 5)));
      };
      check();
      // Inserts anywhere (a full leaf splits), then deletes anywhere until it is empty (leaves merge).
      for (let i = 0; i < Math.min(length, 3_000); i++) {
        const entry = { seconds: Math.floor(next() * 500), nanos: 1, taskId: `n${i}` };
        index.insert(entry);
        live.push(entry);
      }
      check();
      while (live.length > 0) {
        const at = Math.floor(next() * live.length);
        const gone = live[at] as Entry;
        live[at] = live[live.length - 1] as Entry;
        live.pop();
        expect(index.delete(gone)).toBe(true);
        if (live.length % 2_999 === 0) check();
      }
      check();
    }
  });

  it("answers false for an entry it does not hold, even one whose key ties with a held one", () => {
    const index = new OrderIndex<Entry>();
    const held = { seconds: 1, nanos: 0, taskId: "x" };
    index.insert(held);
    expect(index.delete({ seconds: 1, nanos: 0, taskId: "x" })).toBe(false);
    expect(index.delete({ seconds: 9, nanos: 0, taskId: "y" })).toBe(false);
    expect(index.delete(held)).toBe(true);
    expect(index.size).toBe(0);
    expect(index.slice(0, 5)).toEqual([]);
  });

  it("shrinks back to nothing and grows again after every entry is deleted", () => {
    const index = new OrderIndex<Entry>();
    const entries = Array.from({ length: 20_000 }, (_, i) => ({ seconds: i % 97, nanos: 0, taskId: `id${i}` }));
    for (const e of entries) index.insert(e);
    for (const e of entries) expect(index.delete(e)).toBe(true);
    expect(index.size).toBe(0);
    index.insert({ seconds: 1, nanos: 0, taskId: "again" });
    expect(ids(contents(index))).toEqual(["again"]);
  });
});
