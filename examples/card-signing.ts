/**
 * Card signing (docs/security.md "Agent card signing"): an agent serves a
 * card signed with its ES256 key, and a caller verifies the fetched card
 * against the publisher's JWKS before trusting it. Run it: `npx tsx card-signing.ts`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { InvalidAgentCardSignatureError, type JsonObject } from "@novaos/client-sdk";
import { nodeHandler } from "@novaos/client-sdk/node";
import { signAgentCard, verifyAgentCardSignatures } from "@novaos/client-sdk/security";
import { AgentBuilder, createLogger } from "@novaos/client-sdk/server";

// The publisher's key pair; in production the private key is a mounted secret and the JWKS is served over HTTPS.
const { privateKey, publicKey } = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
  "sign",
  "verify",
]);
const jwks = { keys: [{ ...(await crypto.subtle.exportKey("jwk", publicKey)), kid: "card-2026", alg: "ES256" }] };

const agent = new AgentBuilder({ name: "mailer", logger: createLogger({ level: "warn" }) });
agent.skill("send", (_ctx, text) => ({ output: `sent: ${text}` }));

// The card served must be the card signed: fix its interfaces first.
const server = http.createServer();
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const published = { supportedInterfaces: [{ url: `${origin}/`, protocolBinding: "JSONRPC" }] };
const signed = await signAgentCard(agent.toAgentCard(published), privateKey, { kid: "card-2026", alg: "ES256" });
server.on("request", nodeHandler(agent, { agentCard: { ...published, signatures: signed.signatures } }));

// The caller: fetch the raw card JSON (every field counts) and verify it against the JWKS it trusts.
const verify = (card: JsonObject) =>
  verifyAgentCardSignatures(card, {
    jwksUrl: "https://keys.mailer.example/jwks.json",
    allowedHosts: ["mailer.example"],
    fetch: async () => Response.json(jwks), // stands in for the publisher's JWKS endpoint
  });
const card = (await (await fetch(`${origin}/.well-known/agent-card.json`)).json()) as JsonObject;
await verify(card);
console.log(`verified the card of ${card.name}`);

try {
  await verify({ ...card, description: "a card someone changed" });
} catch (error) {
  if (!(error instanceof InvalidAgentCardSignatureError)) throw error;
  console.log("a changed card does not verify");
}
server.close();
