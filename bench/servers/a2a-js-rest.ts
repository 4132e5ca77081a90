/**
 * Bench server: @a2a-js/sdk 1.3.0's HTTP+JSON binding (Express `restHandler`)
 * over the shared bench agent. Prints its port on stdout.
 */
import type { AddressInfo } from "node:net";
import { restHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";
import { benchRequestHandler } from "./a2a-js-agent.js";

const app = express();
app.use("/", restHandler({ requestHandler: benchRequestHandler(), userBuilder: UserBuilder.noAuthentication }));
const server = app.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
server.keepAliveTimeout = 60_000;
