/**
 * Complete replies are written at the end of the event-loop turn that made
 * them (`setImmediate`), all together. Every write to a client that is
 * waiting for its reply wakes that client up, and on loopback or a pod's
 * virtual network the kernel does the waking inside the writer's `write`
 * call: written one by one as each request finishes, a turn that answers 30
 * requests pays 30 wake-ups; written back to back, the first write wakes the
 * client and the rest find it awake. Measured on the JSON-RPC echo bench:
 * system time per call fell from ~26 µs to ~11 µs and throughput rose by
 * about 60 %. A reply waits at most for the rest of its turn (the other
 * callbacks that turn was already running). Streams do the same per burst
 * (see node-adapter.ts).
 */
import type { ServerResponse } from "node:http";

let responses: ServerResponse[] = [];
let bodies: (string | Uint8Array | undefined)[] = [];
let written: Promise<void> = Promise.resolve();
let markWritten: () => void = () => undefined;

/** Ends `res` with `body` at the end of this turn; resolves once this turn's replies are written. */
export function endAtTurnEnd(res: ServerResponse, body?: string | Uint8Array): Promise<void> {
  if (responses.length === 0) {
    written = new Promise((resolve) => {
      markWritten = resolve;
    });
    setImmediate(writeTurn);
  }
  responses.push(res);
  bodies.push(body);
  return written;
}

function writeTurn(): void {
  const ending = responses;
  const endingBodies = bodies;
  const done = markWritten;
  responses = [];
  bodies = [];
  for (let i = 0; i < ending.length; i++) {
    const res = ending[i] as ServerResponse;
    try {
      res.end(endingBodies[i]);
    } catch {
      // One reply that cannot be written must not keep the others of its turn from going out.
      res.destroy();
    }
  }
  done();
}
