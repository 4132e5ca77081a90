/**
 * Attack family: tampering with a signed agent card. The canonical form used
 * to strip empty values, so a security requirement without scopes (the
 * common bearer case) was not signed: removing it, swapping its scheme or
 * adding anonymous access still verified. Replayed against the card an agent
 * serves (the card is HTTP-only: gRPC serves no card).
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { exportJWK, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { InvalidAgentCardSignatureError } from "../../src/errors/novaos-errors.js";
import { listen } from "../../src/node/index.js";
import { createLogger } from "../../src/runtime/logger.js";
import { signAgentCard, verifyAgentCardSignatures } from "../../src/security/card-signing.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { startJwksServer } from "../security/jwks-server.js";

const PUBLIC_URL = "https://mailer.example/a2a";
const security = {
  securitySchemes: {
    bearer: { scheme: { case: "httpAuthSecurityScheme" as const, value: { scheme: "Bearer" } } },
    mtls: { scheme: { case: "mtlsSecurityScheme" as const, value: {} } },
  },
  securityRequirements: [{ schemes: { bearer: {} } }],
};

describe("a signed card served by listen(agent)", () => {
  it("stops verifying when a scope-less security requirement is removed, swapped or widened", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    await using jwks = await startJwksServer({
      keys: [{ ...(await exportJWK(publicKey)), kid: "card-1", alg: "ES256" }],
    });
    const jwksUrl = `${jwks.url}/jwks.json`;
    const agent = new AgentBuilder({ name: "mailer", version: "1.0.0", logger: createLogger({ level: "silent" }) });
    agent.skill("send", { description: "Send one mail", tags: ["mail"] }, async () => ({ output: "sent" }));
    const supportedInterfaces = ["JSONRPC", "HTTP+JSON"].map((protocolBinding) => ({
      url: PUBLIC_URL,
      protocolBinding,
      protocolVersion: "1.0",
    }));
    const signed = await signAgentCard(agent.toAgentCard({ ...security, supportedInterfaces }), privateKey, {
      kid: "card-1",
      alg: "ES256",
    });
    await using server = await listen(agent, {
      port: 0,
      publicUrl: PUBLIC_URL,
      agentCard: { ...security, signatures: signed.signatures },
    });

    const response = await fetch(`http://127.0.0.1:${server.port}/.well-known/agent-card.json`);
    const served = (await response.json()) as JsonObject;
    expect(served.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
    await expect(verifyAgentCardSignatures(served, { jwksUrl })).resolves.toBeUndefined();
    const tamperings: JsonObject[][] = [[], [{ schemes: { mtls: {} } }], [{ schemes: { bearer: {} } }, {}]];
    for (const securityRequirements of tamperings) {
      await expect(verifyAgentCardSignatures({ ...served, securityRequirements }, { jwksUrl })).rejects.toBeInstanceOf(
        InvalidAgentCardSignatureError,
      );
    }
  });
});
