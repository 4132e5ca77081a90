/** Every bench scenario `make bench` runs, in order. Add a scenario by adding it here. */
import type { BenchScenario } from "../scenario.js";
import { clientStream } from "./client-stream.js";
import { grpcEcho } from "./grpc-echo.js";
import { httpJsonEcho } from "./http-json-echo.js";
import { jsonRpcEcho } from "./jsonrpc-echo.js";
import { jsonRpcStream } from "./jsonrpc-stream.js";
import { listTasks } from "./list-tasks.js";

export const scenarios: readonly BenchScenario[] = [
  jsonRpcEcho,
  jsonRpcStream,
  clientStream,
  httpJsonEcho,
  grpcEcho,
  listTasks,
];
