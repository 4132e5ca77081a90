/**
 * SendMessage echo over gRPC, 32 calls in flight on one HTTP/2 connection
 * (the same raw node:http2 load for every server): ours (the AgentBuilder's
 * gRPC binding) vs @a2a-js/sdk's `grpcService` on @grpc/grpc-js, on the same
 * agent behaviour, vs node:http2 answering with no framework and no A2A handler.
 * Ours must cost at most 1.3× the ceiling's server CPU per call. A second
 * ceiling (bench/servers/raw-grpc-task.ts) does the echo's A2A work by hand
 * with no framework: against it, ours shows what the framework adds.
 */
import { fromJson } from "@bufbuild/protobuf";
import { SendMessageRequestSchema, type SendMessageResponse, TaskState } from "../../gen/a2a_pb.js";
import { ECHO_MESSAGE, type EchoTarget, type EchoTargets, echoScenario } from "../support/echo-targets.js";
import { grpcLoad } from "../support/grpc-load.js";

const request = fromJson(SendMessageRequestSchema, { message: ECHO_MESSAGE });
const headers = { "a2a-version": "1.0" };

const completedTask = (answer: SendMessageResponse) =>
  answer.payload.case === "task" && answer.payload.value.status?.state === TaskState.COMPLETED;

const target = (server: string, verify: (answer: SendMessageResponse) => boolean): EchoTarget => ({
  server,
  load: (running, window) =>
    grpcLoad({
      target: new URL(running.url).host,
      request,
      headers,
      verify,
      concurrency: window.connections,
      durationSeconds: window.durationSeconds,
      warmupSeconds: window.warmupSeconds,
      around: window.around,
    }),
});

export const grpcEchoTargets: EchoTargets = {
  ours: target("ours-grpc", completedTask),
  peer: target("a2a-js-grpc", completedTask),
  ceiling: target("raw-grpc", (answer) => answer.payload.case === "message"),
};

export const grpcEcho = echoScenario("gRPC SendMessage echo", grpcEchoTargets, {
  connections: 32,
  name: "SendMessage echo (32 calls in flight)",
  unit: "calls/s",
  targets: { vsPeer: 1 },
  cpuTargets: { maxVsCeiling: 1.3 },
  note: "ceiling: node:http2, no framework",
  sameWork: {
    target: target("raw-grpc-task", completedTask),
    what: "doing the same work (make, keep and encode the task)",
  },
});
