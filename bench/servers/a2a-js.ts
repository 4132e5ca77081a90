/**
 * Bench server: @a2a-js/sdk 1.3.0 as its docs set it up: DefaultRequestHandler
 * with the in-memory task store behind Express's jsonRpcHandler, over the
 * shared bench agent (a2a-js-agent.ts). With `BENCH_TASKS` set, its store
 * first gets that many echo tasks (stored-tasks.ts). Prints its port on stdout.
 */
import type { AddressInfo } from "node:net";
import { Role } from "@a2a-js/sdk";
import { ServerCallContext, UnauthenticatedUser } from "@a2a-js/sdk/server";
import { jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";
import { ECHO_MESSAGE } from "../support/echo-message.js";
import { benchRequestHandler } from "./a2a-js-agent.js";
import { announce, storeTasks, tasksToStore } from "./stored-tasks.js";

const requestHandler = benchRequestHandler();
const count = tasksToStore();
let stored: { count: number; bytesPerTask: number } | undefined;
if (count > 0) {
  const bytesPerTask = await storeTasks(count, (i) =>
    requestHandler.sendMessage(
      {
        tenant: "",
        message: {
          messageId: `stored-${i}`,
          contextId: "",
          taskId: "",
          role: Role.ROLE_USER,
          parts: [
            {
              content: { $case: "text", value: ECHO_MESSAGE.parts[0]?.text ?? "" },
              metadata: undefined,
              filename: "",
              mediaType: "",
            },
          ],
          metadata: ECHO_MESSAGE.metadata,
          extensions: [],
          referenceTaskIds: [],
        },
        configuration: undefined,
        metadata: undefined,
      },
      new ServerCallContext({ user: new UnauthenticatedUser(), requestedVersion: "1.0" }),
    ),
  );
  stored = { count, bytesPerTask };
}

const app = express();
app.use("/", jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
const server = app.listen(0, "127.0.0.1", () => announce((server.address() as AddressInfo).port, stored));
server.keepAliveTimeout = 60_000;
