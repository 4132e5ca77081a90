/**
 * The gRPC bench ceilings' server (bench/servers/raw-grpc.ts,
 * raw-grpc-task.ts): node:http2 with no framework, reading each SendMessage
 * call whole, decoding it with protobuf-es, and answering with `answer`'s
 * reply encoded with protobuf-es in a hand-made envelope and an OK status.
 * Prints its port on stdout.
 */
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  type SendMessageRequest,
  SendMessageRequestSchema,
  type SendMessageResponse,
  SendMessageResponseSchema,
} from "../../gen/a2a_pb.js";

const ENVELOPE_HEADER_BYTES = 5;

export function serveRawGrpcUnary(answer: (request: SendMessageRequest) => SendMessageResponse): void {
  const server = http2.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = fromBinary(SendMessageRequestSchema, Buffer.concat(chunks).subarray(ENVELOPE_HEADER_BYTES));
      const reply = toBinary(SendMessageResponseSchema, answer(request));
      const frame = Buffer.alloc(ENVELOPE_HEADER_BYTES + reply.byteLength);
      frame.writeUInt32BE(reply.byteLength, 1);
      frame.set(reply, ENVELOPE_HEADER_BYTES);
      res.writeHead(200, { "content-type": "application/grpc+proto" });
      res.addTrailers({ "grpc-status": "0" });
      res.end(frame);
    });
  });
  server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
}
