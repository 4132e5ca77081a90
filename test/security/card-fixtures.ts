/** A small valid agent card in its raw ProtoJSON form, shared by the card-signing tests. */
import type { JsonObject } from "@bufbuild/protobuf";

export const BASE_CARD: JsonObject = {
  name: "Weather agent",
  description: "Forecasts",
  version: "1.0.0",
  supportedInterfaces: [{ url: "http://agent.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "forecast", name: "Forecast", description: "Tomorrow's weather", tags: ["weather"] }],
};
