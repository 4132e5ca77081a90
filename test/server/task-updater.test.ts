/**
 * A skill's writes and the streams watching its task: below STREAM_BACKLOG
 * unread events, and within the turn's slice of stream work, a write never
 * leaves the microtask queue; past either each write yields one turn of the
 * event loop, so a stream's socket can drain and other requests get their
 * turn. A stream nobody reads slows the skill and loses nothing; it never
 * stops it. The clock is `performance.now()`, held still or stepped here so
 * no test depends on how fast the machine is.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { LiveTask } from "../../src/server/live-task.js";
import { newTask } from "../../src/server/message-literals.js";
import { InMemoryTaskStore } from "../../src/server/task-store.js";
import { STREAM_BACKLOG, TaskUpdater, textPart } from "../../src/server/task-updater.js";
import { TURN_SLICE_MS } from "../../src/server/turn-slice.js";

/** Writes `count` chunks through an updater; resolves to the event-loop turns that passed meanwhile. */
async function writeChunks(live: LiveTask, count: number): Promise<number> {
  const updater = new TaskUpdater(live, () => undefined);
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  for (let i = 0; i < count; i++) {
    await updater.addArtifact([textPart(String(i))], { artifactId: "a", append: i > 0 });
  }
  done = true;
  return turns;
}

const liveTask = () => new LiveTask(newTask("t", "c"), "scope", new InMemoryTaskStore(), { owner: "", version: 0 });

/** `performance.now()` held at one instant: no slice is ever spent. */
const holdClock = () => vi.spyOn(performance, "now").mockReturnValue(1000);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("task updater: streams get to drain", () => {
  it("stays on microtasks when no stream watches, within the turn's slice", async () => {
    holdClock();
    expect(await writeChunks(liveTask(), 2 * STREAM_BACKLOG)).toBe(0);
  });

  it("stays on microtasks while a watching stream keeps up, within the turn's slice", async () => {
    holdClock();
    const live = liveTask();
    const subscription = live.events.subscribe();
    const read: number[] = [];
    const reading = (async () => {
      for (let batch = await subscription.nextBatch(); batch; batch = await subscription.nextBatch()) {
        read.push(batch.length);
      }
    })();
    expect(await writeChunks(live, 2 * STREAM_BACKLOG)).toBe(0);
    live.close();
    await reading;
    expect(read.reduce((a, b) => a + b, 0)).toBe(2 * STREAM_BACKLOG);
  });

  it("yields a turn per write past the backlog when a stream is not read, and loses nothing", async () => {
    holdClock();
    const live = liveTask();
    const subscription = live.events.subscribe();
    const count = 2 * STREAM_BACKLOG;
    const turns = await writeChunks(live, count);
    expect(turns).toBeGreaterThanOrEqual(count - STREAM_BACKLOG);
    expect(subscription.buffered).toBe(count);
    expect(live.task.artifacts[0]?.parts).toHaveLength(count);
  });

  it("gives stream work 0.1 ms of each event-loop turn (decision S252)", () => {
    expect(TURN_SLICE_MS).toBe(0.1);
  });

  it("yields a turn per write once the turn's slice of stream work is spent, watched or not", async () => {
    // Every reading of the clock is a tenth of the slice later: the slice is spent after ten writes of a turn.
    let now = 0;
    vi.spyOn(performance, "now").mockImplementation(() => {
      now += TURN_SLICE_MS / 10;
      return now;
    });
    const count = 2 * STREAM_BACKLOG;
    const live = liveTask();
    const turns = await writeChunks(live, count);
    expect(turns).toBeGreaterThanOrEqual(count / 20);
    expect(live.task.artifacts[0]?.parts).toHaveLength(count);
  });
});
