/**
 * Unary gRPC load: `concurrency` calls in flight on one HTTP/2 connection
 * (how a gRPC client talks to one server), through connect-node's gRPC
 * client, the same client for every server measured.
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { A2AService, type SendMessageRequest, type SendMessageResponse } from "../../gen/a2a_pb.js";
import type { WindowHooks } from "./load.js";

export interface GrpcLoadOptions {
  /** `host:port`. */
  readonly target: string;
  readonly request: SendMessageRequest;
  readonly headers?: Record<string, string>;
  /** Checked against one response before measuring. */
  readonly verify: (response: SendMessageResponse) => boolean;
  readonly concurrency?: number;
  readonly durationSeconds?: number;
  readonly warmupSeconds?: number;
  /** Called right before and right after the measured window. */
  readonly around?: WindowHooks;
}

/** SendMessage calls per second over the measured window. */
export async function grpcCallsPerSecond(options: GrpcLoadOptions): Promise<number> {
  const baseUrl = `http://${options.target}`;
  const sessionManager = new Http2SessionManager(baseUrl);
  const client = createClient(A2AService, createGrpcTransport({ baseUrl, sessionManager }));
  const call = () => client.sendMessage(options.request, { headers: options.headers ?? {} });
  try {
    const answer = await call();
    if (!options.verify(answer)) throw new Error(`unexpected answer from ${options.target}: ${answer.payload.case}`);
    const run = async (seconds: number) => {
      const until = performance.now() + seconds * 1000;
      let done = 0;
      const worker = async () => {
        while (performance.now() < until) {
          await call();
          done++;
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: options.concurrency ?? 32 }, worker));
      return (done / (performance.now() - started)) * 1000;
    };
    await run(options.warmupSeconds ?? 1);
    await options.around?.before();
    const rate = await run(options.durationSeconds ?? 5);
    await options.around?.after();
    return rate;
  } finally {
    sessionManager.abort();
  }
}
