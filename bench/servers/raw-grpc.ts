/**
 * Bench ceiling for gRPC: node:http2 answering SendMessage with the request's
 * message (decoded and re-encoded with protobuf-es), no framework and no A2A
 * handler. What a gRPC unary call costs on this machine at least. Prints its
 * port on stdout.
 */
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { SendMessageRequestSchema, SendMessageResponseSchema } from "../../gen/a2a_pb.js";

const server = http2.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const request = fromBinary(SendMessageRequestSchema, Buffer.concat(chunks).subarray(5));
    const reply = toBinary(
      SendMessageResponseSchema,
      create(SendMessageResponseSchema, { payload: { case: "message", value: request.message! } }),
    );
    const frame = Buffer.alloc(5 + reply.byteLength);
    frame.writeUInt32BE(reply.byteLength, 1);
    frame.set(reply, 5);
    res.writeHead(200, { "content-type": "application/grpc+proto" });
    res.addTrailers({ "grpc-status": "0" });
    res.end(frame);
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
