/**
 * Bench ceiling for gRPC: node:http2 answering SendMessage with the request's
 * message (decoded and re-encoded with protobuf-es), no framework and no A2A
 * handler. What a gRPC unary call costs on this machine at least. Prints its
 * port on stdout.
 */
import { create } from "@bufbuild/protobuf";
import { SendMessageResponseSchema } from "../../gen/a2a_pb.js";
import { serveRawGrpcUnary } from "../support/raw-grpc-unary.js";

serveRawGrpcUnary((request) =>
  create(SendMessageResponseSchema, { payload: { case: "message", value: request.message! } }),
);
