/**
 * Bench server: @a2a-js/sdk 1.3.0 as its docs set it up: DefaultRequestHandler
 * with the in-memory task store behind Express's jsonRpcHandler. Same two
 * behaviours as ours: `echo` completes a task with the input text as an
 * artifact and a status message; `stream` publishes N artifact chunks.
 * Prints its port on stdout.
 */
import type { AddressInfo } from "node:net";
import { jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";
import { benchRequestHandler } from "./a2a-js-agent.js";

const app = express();
app.use("/", jsonRpcHandler({ requestHandler: benchRequestHandler(), userBuilder: UserBuilder.noAuthentication }));
const server = app.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
server.keepAliveTimeout = 60_000;
