/**
 * Memory per stored task: what a server's heap and array buffers grow by per
 * echo task (a completed task holding the request as its history, the echo
 * as its artifact and its status message), after a full GC, over 10,000 tasks made
 * by SendMessage calls. Ours vs @a2a-js/sdk; each round starts fresh servers.
 * Two rounds: the figure moves by a few bytes from one to the next.
 */
import type { OpenScenario, RoundsScenario, Side } from "../scenario.js";
import { startStoredServer } from "../support/stored-servers.js";

const TASKS = 10_000;

export const memory: RoundsScenario = {
  name: "memory per stored task",
  rounds: 2,
  rows: [
    {
      key: "bytes",
      name: `memory per stored echo task, heap and array buffers (${TASKS.toLocaleString("en")} tasks)`,
      unit: "bytes",
    },
  ],
  async open(): Promise<OpenScenario> {
    return {
      sides: ["ours", "peer"] satisfies Side[],
      async measure(side) {
        const { server, bytesPerTask } = await startStoredServer(side, TASKS);
        await server.stop();
        return { bytes: bytesPerTask };
      },
      close: async () => undefined,
    };
  },
};
