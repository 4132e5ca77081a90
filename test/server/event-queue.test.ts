/** Fan-out: every subscription gets every later event in order; closing ends them after their buffer. */
import { describe, expect, it } from "vitest";
import { EventQueue } from "../../src/server/event-queue.js";

describe("EventQueue", () => {
  it("delivers each event to every subscription, in order, without replay", async () => {
    const queue = new EventQueue<number>();
    queue.publish(0);
    const a = queue.subscribe();
    const b = queue.subscribe();
    queue.publish(1);
    queue.publish(2);
    queue.close();
    const read = async (s: AsyncIterable<number>) => {
      const out: number[] = [];
      for await (const e of s) out.push(e);
      return out;
    };
    expect(await read(a)).toEqual([1, 2]);
    expect(await read(b)).toEqual([1, 2]);
    expect(queue.subscriptionCount).toBe(0);
  });

  it("hands out everything buffered as one batch", async () => {
    const queue = new EventQueue<string>();
    const s = queue.subscribe();
    queue.publish("a");
    queue.publish("b");
    expect(await s.nextBatch()).toEqual(["a", "b"]);
    const pending = s.nextBatch();
    queue.publish("c");
    expect(await pending).toEqual(["c"]);
  });

  it("lets one subscription go without affecting the others", async () => {
    const queue = new EventQueue<number>();
    const leaving = queue.subscribe();
    const staying = queue.subscribe();
    const waiting = leaving.nextBatch();
    leaving.cancel();
    expect(await waiting).toBeUndefined();
    queue.publish(1);
    expect(await staying.nextBatch()).toEqual([1]);
    expect(queue.subscriptionCount).toBe(1);
  });

  it("drops events after close and ends new subscriptions at once", async () => {
    const queue = new EventQueue<number>();
    queue.close();
    queue.close();
    queue.publish(1);
    const late = queue.subscribe();
    expect(late.ended).toBe(true);
    expect(await late.nextBatch()).toBeUndefined();
  });

  it("stops at once when the loop is left early", async () => {
    const queue = new EventQueue<number>();
    const s = queue.subscribe();
    queue.publish(1);
    queue.publish(2);
    for await (const e of s) {
      expect(e).toBe(1);
      break;
    }
    expect(s.ended).toBe(true);
    expect(queue.subscriptionCount).toBe(0);
  });
});

describe("EventQueue with a backlog limit", () => {
  const exceeded = new Error("fell behind");
  const limited = () => new EventQueue<string>({ weigh: (e) => e.length, maxWeight: 10, exceeded: () => exceeded });

  it("ends a subscription that holds more than the limit: what it held is dropped, reading throws", async () => {
    const queue = limited();
    const slow = queue.subscribe();
    const fast = queue.subscribe();
    queue.publish("aaaa");
    expect(await fast.nextBatch()).toEqual(["aaaa"]);
    queue.publish("bbbb");
    expect(await fast.nextBatch()).toEqual(["bbbb"]);
    // The slow one holds 8 of 10: the next event takes it past the limit.
    queue.publish("cccc");
    expect(slow.ended).toBe(true);
    expect(slow.buffered).toBe(0);
    await expect(slow.nextBatch()).rejects.toBe(exceeded);
    // The others go on; the queue let go of the slow one.
    expect(await fast.nextBatch()).toEqual(["cccc"]);
    expect(queue.subscriptionCount).toBe(1);
  });

  it("counts only what is held: taking a batch frees its weight, and one event always fits", async () => {
    const queue = limited();
    const s = queue.subscribe();
    queue.publish("aaaaaaaa");
    expect(await s.nextBatch()).toEqual(["aaaaaaaa"]);
    queue.publish("bbbbbbbb");
    expect(await s.nextBatch()).toEqual(["bbbbbbbb"]);
    queue.publish("a much longer event than the limit");
    expect(await s.nextBatch()).toEqual(["a much longer event than the limit"]);
    const read: string[] = [];
    queue.publish("x");
    queue.close();
    for await (const e of s) read.push(e);
    expect(read).toEqual(["x"]);
  });
});
