/** A valid A2A v1.0.1 Agent Card in wire form, for the discovery tests. */
import type { JsonObject } from "@bufbuild/protobuf";

export function agentCardJson(overrides: JsonObject = {}): JsonObject {
  return {
    name: "Joke agent",
    description: "Tells jokes",
    version: "1.2.0",
    supportedInterfaces: [
      { url: "https://agent.partner.test/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "t-9" },
      { url: "agent.partner.test:50051", protocolBinding: "GRPC", protocolVersion: "1.0" },
    ],
    capabilities: {
      streaming: true,
      extensions: [{ uri: "https://ext.example/trace", description: "tracing", required: false }],
    },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      { id: "joke", name: "Joke", description: "A joke", tags: ["fun"] },
      { id: "pun", name: "Pun", description: "A pun", tags: ["fun"] },
    ],
    ...overrides,
  };
}
