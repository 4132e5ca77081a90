/** The echo rows by the short names the bench tools take on their command line (`jsonrpc`, `http-json`, `grpc`). */
import type { EchoTargets } from "../support/echo-targets.js";
import { grpcEchoTargets } from "./grpc-echo.js";
import { httpJsonEchoTargets } from "./http-json-echo.js";
import { jsonRpcEchoTargets } from "./jsonrpc-echo.js";

export const ECHO_ROWS: Readonly<Record<string, EchoTargets>> = {
  jsonrpc: jsonRpcEchoTargets,
  "http-json": httpJsonEchoTargets,
  grpc: grpcEchoTargets,
};
