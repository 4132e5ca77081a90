/** Every bench scenario `make bench` runs, in order. Add a scenario by adding it here. */
import type { BenchScenario } from "../scenario.js";
import { clientStream } from "./client-stream.js";
import { jsonRpcEcho } from "./jsonrpc-echo.js";
import { jsonRpcStream } from "./jsonrpc-stream.js";

export const scenarios: readonly BenchScenario[] = [jsonRpcEcho, jsonRpcStream, clientStream];
