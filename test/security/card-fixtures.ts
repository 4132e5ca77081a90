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

/**
 * BASE_CARD with security whose empty values are the data: a bearer
 * requirement with no scopes, an mTLS scheme with nothing in it, an OAuth
 * scope without a description, a skill that may be called anonymously.
 */
export const SECURED_CARD: JsonObject = {
  ...BASE_CARD,
  securitySchemes: {
    bearer: { httpAuthSecurityScheme: { scheme: "Bearer" } },
    mtls: { mtlsSecurityScheme: {} },
    oauth: {
      oauth2SecurityScheme: {
        flows: { clientCredentials: { tokenUrl: "https://auth.example/token", scopes: { read: "", write: "Write" } } },
      },
    },
  },
  securityRequirements: [{ schemes: { bearer: {} } }, { schemes: { oauth: { list: ["read"] } } }],
  skills: [
    {
      id: "forecast",
      name: "Forecast",
      description: "Tomorrow's weather",
      tags: ["weather"],
      securityRequirements: [{ schemes: { mtls: {} } }, {}],
    },
  ],
};
