/**
 * A card an AgentBuilder serves, signed here, verified from the wire the way
 * a discovering client does (raw fetched JSON, keys from a trusted JWKS).
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { exportJWK, generateKeyPair } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { InvalidAgentCardSignatureError } from "../../src/errors/novaos-errors.js";
import { createLogger } from "../../src/runtime/logger.js";
import { signAgentCard, verifyAgentCardSignatures } from "../../src/security/card-signing.js";
import { UserContextExtension } from "../../src/security/user-context-extension.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { type RunningServer, serveAgent } from "../server/support/agent-server.js";
import { startJwksServer } from "./jwks-server.js";

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe("a signed card served by an AgentBuilder", () => {
  it("verifies from the wire, and stops verifying when what is served changes", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    await using jwks = await startJwksServer({
      keys: [{ ...(await exportJWK(publicKey)), kid: "card-1", alg: "ES256" }],
    });
    const agent = new AgentBuilder({
      name: "mailer",
      version: "1.2.0",
      description: "Sends mail",
      logger: createLogger({ level: "silent" }),
      extensions: [new UserContextExtension()],
    });
    agent.skill("send", { description: "Send one mail", tags: ["mail"] }, async () => ({ output: "sent" }));
    // The interfaces are fixed so that the served card is the card that was signed.
    const published = {
      supportedInterfaces: [{ url: "https://mailer.example/a2a", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    };
    const signed = await signAgentCard(agent.toAgentCard(published), privateKey, { kid: "card-1", alg: "ES256" });
    running = await serveAgent(agent, { agentCard: { ...published, signatures: signed.signatures } });

    const fetched = (await (await fetch(new URL("/.well-known/agent-card.json", running.url))).json()) as JsonObject;
    expect(fetched.signatures).toHaveLength(1);
    await expect(verifyAgentCardSignatures(fetched, { jwksUrl: `${jwks.url}/jwks.json` })).resolves.toBeUndefined();
    await expect(
      verifyAgentCardSignatures({ ...fetched, description: "Sends spam" }, { jwksUrl: `${jwks.url}/jwks.json` }),
    ).rejects.toBeInstanceOf(InvalidAgentCardSignatureError);
  });
});
