/**
 * Unary gRPC load: `concurrency` calls in flight on one HTTP/2 connection
 * (how a gRPC client talks to one server). One answer is checked through
 * connect-node's gRPC client first; the load itself is raw `node:http2`
 * sending the pre-encoded request frame and reading the status trailer, so
 * the load generator (which shares the machine with the server) costs a
 * fraction of what a full gRPC client costs per call and the row measures
 * the servers, not the client. Every measured call must end with
 * `grpc-status: 0` and a response message.
 */
import http2 from "node:http2";
import { toBinary } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import {
  A2AService,
  type SendMessageRequest,
  SendMessageRequestSchema,
  type SendMessageResponse,
} from "../../gen/a2a_pb.js";
import type { LoadResult, WindowHooks } from "./load.js";
import { quantile } from "./stats.js";

export interface GrpcLoadOptions {
  /** `host:port`. */
  readonly target: string;
  readonly request: SendMessageRequest;
  readonly headers?: Record<string, string>;
  /** Checked against one response (decoded by connect-node) before measuring. */
  readonly verify: (response: SendMessageResponse) => boolean;
  readonly concurrency?: number;
  readonly durationSeconds?: number;
  /** 0 skips the warm-up. */
  readonly warmupSeconds?: number;
  /** Called right before and right after the measured window. */
  readonly around?: WindowHooks;
}

/** SendMessage calls over one measured window: their rate and latencies. */
export async function grpcLoad(options: GrpcLoadOptions): Promise<LoadResult> {
  await checkOneAnswer(options);
  const session = http2.connect(`http://${options.target}`);
  session.on("error", () => undefined);
  try {
    const frame = grpcFrame(toBinary(SendMessageRequestSchema, options.request));
    const headers = {
      ":method": "POST",
      ":path": `/${A2AService.typeName}/${A2AService.method.sendMessage.name}`,
      "content-type": "application/grpc+proto",
      te: "trailers",
      ...options.headers,
    };
    const run = async (seconds: number): Promise<LoadResult> => {
      const until = performance.now() + seconds * 1000;
      const latencies: number[] = [];
      const worker = async () => {
        for (let sent = performance.now(); sent < until; sent = performance.now()) {
          await unaryCall(session, headers, frame);
          latencies.push(performance.now() - sent);
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: options.concurrency ?? 32 }, worker));
      const rate = (latencies.length / (performance.now() - started)) * 1000;
      latencies.sort((a, b) => a - b);
      return { rate, calls: latencies.length, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
    };
    const warmup = options.warmupSeconds ?? 1;
    if (warmup > 0) await run(warmup);
    await options.around?.before();
    const result = await run(options.durationSeconds ?? 5);
    await options.around?.after();
    return result;
  } finally {
    session.destroy();
  }
}

async function checkOneAnswer(options: GrpcLoadOptions): Promise<void> {
  const baseUrl = `http://${options.target}`;
  const sessionManager = new Http2SessionManager(baseUrl);
  try {
    const client = createClient(A2AService, createGrpcTransport({ baseUrl, sessionManager }));
    const answer = await client.sendMessage(options.request, { headers: options.headers ?? {} });
    if (!options.verify(answer)) throw new Error(`unexpected answer from ${options.target}: ${answer.payload.case}`);
  } finally {
    sessionManager.abort();
  }
}

/** The gRPC length-prefixed message: flag 0 (uncompressed), 4-byte big-endian length, the bytes. */
function grpcFrame(message: Uint8Array): Buffer {
  const frame = Buffer.alloc(5 + message.byteLength);
  frame.writeUInt32BE(message.byteLength, 1);
  frame.set(message, 5);
  return frame;
}

/** One call: resolves when the stream ends with grpc-status 0 after a response message, rejects otherwise. */
function unaryCall(
  session: http2.ClientHttp2Session,
  headers: http2.OutgoingHttpHeaders,
  frame: Buffer,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers, { endStream: false });
    let received = 0;
    let status: string | undefined;
    stream.on("response", (head) => {
      status = head["grpc-status"] as string | undefined;
    });
    stream.on("trailers", (trailers) => {
      status = trailers["grpc-status"] as string | undefined;
    });
    stream.on("data", (chunk: Buffer) => {
      received += chunk.byteLength;
    });
    stream.on("error", reject);
    stream.on("close", () => {
      if (status === "0" && received > 5) resolve();
      else reject(new Error(`gRPC call ended with status ${status} after ${received} bytes`));
    });
    stream.end(frame);
  });
}
