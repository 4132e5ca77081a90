/** Every bench scenario `make bench` runs, in order. Add a scenario by adding it here. */
import type { Scenario } from "../scenario.js";
import { clientStream } from "./client-stream.js";
import { fairness } from "./fairness.js";
import { fleet, fleetListTasksLong } from "./fleet.js";
import { grpcEcho } from "./grpc-echo.js";
import { httpJsonEcho } from "./http-json-echo.js";
import { importCost } from "./import-cost.js";
import { jsonRpcEcho } from "./jsonrpc-echo.js";
import { jsonRpcLongStream, jsonRpcStream } from "./jsonrpc-stream.js";
import { listTasks, listTasksLong } from "./list-tasks.js";
import { memory } from "./memory.js";

export const scenarios: readonly Scenario[] = [
  jsonRpcEcho,
  httpJsonEcho,
  grpcEcho,
  jsonRpcStream,
  clientStream,
  listTasks,
  fairness,
  memory,
  importCost,
  fleet,
  jsonRpcLongStream,
  listTasksLong,
  fleetListTasksLong,
];
