/**
 * Bench server: @a2a-js/sdk 1.3.0's gRPC binding (`grpcService` on
 * @grpc/grpc-js, cleartext) over the shared bench agent. Prints its port on stdout.
 */
import { A2AService, grpcService, UserBuilder } from "@a2a-js/sdk/server/grpc";
import * as grpc from "@grpc/grpc-js";
import { benchRequestHandler } from "./a2a-js-agent.js";

const server = new grpc.Server();
server.addService(
  A2AService,
  grpcService({ requestHandler: benchRequestHandler(), userBuilder: UserBuilder.noAuthentication }),
);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  process.stdout.write(`${port}\n`);
});
