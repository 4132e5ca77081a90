import type { JsonObject } from "@bufbuild/protobuf";
import { exportJWK, generateKeyPair } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { AgentDiscoveryService } from "../../src/discovery/agent-discovery-service.js";
import { fetchAgentCard } from "../../src/discovery/fetch-agent-card.js";
import {
  InvalidAgentCardSignatureError,
  NoAgentCardSignatureError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import { signAgentCard } from "../../src/security/card-signing.js";
import { agentCardJson } from "./agent-card.fixture.js";
import { type LocalServer, startHttpServer } from "./local-network.js";
import { cleanupAfterEach } from "./support.js";

let signingKey: CryptoKey;
let signed: JsonObject;
let jwks: { keys: JsonObject[] };
beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  signingKey = privateKey;
  jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: "card-key-1", alg: "ES256", use: "sig" } as JsonObject] };
  signed = await signAgentCard(agentCardJson(), privateKey, { kid: "card-key-1", alg: "ES256" });
});

const cleanup = cleanupAfterEach();

/** One origin serving the card (whatever `card()` returns now) and the JWKS. */
async function origin(card: () => JsonObject): Promise<LocalServer & { url: string; jwksUrl: string }> {
  const server = await startHttpServer((req, res) => {
    const body = req.url === "/jwks.json" ? jwks : card();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  cleanup.push(() => server.close());
  const url = `http://127.0.0.1:${server.port}`;
  return Object.assign(server, { url, jwksUrl: `${url}/jwks.json` });
}

const cardRequests = (server: LocalServer) => server.requests.filter((r) => r.url !== "/jwks.json").length;

describe("AgentDiscoveryService signature verification", () => {
  it("accepts a card signed by a key of the JWKS", async () => {
    const server = await origin(() => signed);
    const card = await fetchAgentCard(server.url, { verifySignatures: true, jwksUrl: server.jwksUrl });
    expect(card.name).toBe("Joke agent");
    expect(card.signatures).toHaveLength(1);
  });

  it("refuses an unsigned card", async () => {
    const server = await origin(() => agentCardJson());
    await expect(
      fetchAgentCard(server.url, { verifySignatures: true, jwksUrl: server.jwksUrl }),
    ).rejects.toBeInstanceOf(NoAgentCardSignatureError);
  });

  it("refuses a tampered card and never caches it", async () => {
    let tampered = true;
    const server = await origin(() =>
      tampered ? { ...signed, url: "https://evil.example", name: "Evil agent" } : signed,
    );
    const discovery = new AgentDiscoveryService({
      baseUrl: server.url,
      verifySignatures: true,
      jwksUrl: server.jwksUrl,
    });
    cleanup.push(() => discovery.close());
    await expect(discovery.agentCard()).rejects.toBeInstanceOf(InvalidAgentCardSignatureError);
    tampered = false;
    expect((await discovery.agentCard()).name).toBe("Joke agent");
    expect(cardRequests(server)).toBe(2);
    await discovery.agentCard();
    expect(cardRequests(server)).toBe(2);
  });

  it("verifies the card as published, not a re-serialised copy", async () => {
    // A field the generated AgentCard does not model vanishes when the card is decoded. Verifying the
    // decoded copy would accept a card an attacker extended after signing; the published JSON does not verify.
    // (A card with no default-valued fields, so that the decoded copy re-serialises to exactly what was signed.)
    const plain = await signAgentCard(agentCardJson({ capabilities: { streaming: true } }), signingKey, {
      kid: "card-key-1",
      alg: "ES256",
    });
    const honest = await origin(() => plain);
    await expect(
      fetchAgentCard(honest.url, { verifySignatures: true, jwksUrl: honest.jwksUrl }),
    ).resolves.toBeDefined();
    const extended = await origin(() => ({ ...plain, "x-vendor-redirect": "https://evil.example" }));
    await expect(
      fetchAgentCard(extended.url, { verifySignatures: true, jwksUrl: extended.jwksUrl }),
    ).rejects.toBeInstanceOf(InvalidAgentCardSignatureError);
  });

  it("needs a jwksUrl", () => {
    expect(() => new AgentDiscoveryService({ baseUrl: "https://gw.example", verifySignatures: true })).toThrow(
      NovaOSValidationError,
    );
  });
});
