/**
 * Replies completed in one turn of the event loop are written together at
 * its end, in order; one that cannot be written is destroyed and does not
 * hold back the others; the next turn starts a new batch.
 */
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { endAtTurnEnd } from "../../src/server/turn-end-writes.js";

interface FakeResponse {
  readonly res: ServerResponse;
  readonly log: string[];
}

function fakeResponse(name: string, log: string[], fails = false): FakeResponse {
  const res = {
    end(body?: string | Uint8Array) {
      if (fails) throw new Error("socket gone");
      log.push(`${name}:${String(body)}`);
    },
    destroy() {
      log.push(`${name}:destroyed`);
    },
  } as unknown as ServerResponse;
  return { res, log };
}

describe("turn-end writes", () => {
  it("writes nothing during the turn, then every reply of the turn in order", async () => {
    const log: string[] = [];
    const a = endAtTurnEnd(fakeResponse("a", log).res, "1");
    const b = endAtTurnEnd(fakeResponse("b", log).res, "2");
    expect(log).toEqual([]);
    expect(b).toBe(a);
    await a;
    expect(log).toEqual(["a:1", "b:2"]);
  });

  it("destroys a reply that cannot be written and still writes the rest", async () => {
    const log: string[] = [];
    endAtTurnEnd(fakeResponse("bad", log, true).res, "x");
    await endAtTurnEnd(fakeResponse("good", log).res, "y");
    expect(log).toEqual(["bad:destroyed", "good:y"]);
  });

  it("starts a new batch in the next turn", async () => {
    const log: string[] = [];
    const first = endAtTurnEnd(fakeResponse("a", log).res, "1");
    await first;
    const second = endAtTurnEnd(fakeResponse("b", log).res, undefined);
    expect(second).not.toBe(first);
    expect(log).toEqual(["a:1"]);
    await second;
    expect(log).toEqual(["a:1", "b:undefined"]);
  });
});
