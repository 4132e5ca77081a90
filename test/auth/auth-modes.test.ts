/**
 * The auth modes besides `executionToken`, over real sockets: `bearer` (a JWT
 * checked with jose against an issuer of the agent's choosing), `apiKey`,
 * `custom`, `trustedProxy` and `none`. Each refuses what it must with the
 * binding's status and a challenge, names the caller it accepts (whose tasks
 * are its own), and derives the card's security. The seam under them is the
 * one every binding runs (execution-token-bindings.test.ts covers each
 * binding); here JSON-RPC carries the calls, gRPC one of them.
 */
import { Writable } from "node:stream";
import { jwtVerify, SignJWT } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { PermissionDeniedError } from "../../src/a2a/errors.js";
import { headerValue } from "../../src/a2a/headers.js";
import { nodeHandler } from "../../src/node/node-handler.js";
import { listen } from "../../src/node/serve-agent.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder, type AgentBuilderOptions } from "../../src/server/agent-builder.js";
import type { CallerIdentity } from "../../src/server/auth/caller-identity.js";
import { type RunningServer, rpc, serveAgent, userMessage, V1 } from "../server/support/agent-server.js";
import { grpcWire } from "./support/auth-wire.js";

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

/** An agent whose `whoami` skill answers with its caller's principal, served over JSON-RPC. */
async function serve(options: Partial<AgentBuilderOptions>): Promise<{ url: string; callers: CallerIdentity[] }> {
  const agent = new AgentBuilder({ name: "modes", logger: createLogger({ level: "silent" }), ...options });
  const callers: CallerIdentity[] = [];
  agent.skill("whoami", (ctx) => {
    callers.push(ctx.identity);
    return { output: ctx.identity.principal || "(anonymous)" };
  });
  const server: RunningServer = await serveAgent(agent);
  running.push(server);
  return { url: server.url, callers };
}

const whoami = () => ({ message: userMessage("who am I?", { metadata: { skillId: "whoami" } }) });

async function send(url: string, headers: Record<string, string>) {
  return rpc(url, "SendMessage", whoami(), { ...V1, ...headers });
}

async function card(url: string) {
  return (await fetch(`${url}.well-known/agent-card.json`)).json();
}

const SHARED_SECRET = new TextEncoder().encode("a shared secret of at least 32 bytes");

function jwt(claims: Record<string, unknown>, issuer = "https://login.example.com/") {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(issuer)
    .setAudience("modes")
    .setExpirationTime("5m")
    .sign(SHARED_SECRET);
}

describe("bearer: a JWT checked with jose against any issuer", () => {
  const bearer = {
    mode: "bearer" as const,
    bearerFormat: "JWT",
    async verify(token: string) {
      const { payload } = await jwtVerify(token, SHARED_SECRET, {
        issuer: "https://login.example.com/",
        audience: "modes",
      });
      return { userId: payload.sub, tenantId: String(payload.org), scopes: String(payload.scope).split(" ") };
    },
  };

  it("lets a valid token in as the caller it names, and refuses others with 401 and an invalid_token challenge", async () => {
    const { url, callers } = await serve({ auth: bearer });
    const ok = await send(url, { authorization: `Bearer ${await jwt({ sub: "ada", org: "acme", scope: "read" })}` });
    expect(ok.body.result.task.status.message.parts[0].text).toBe("4:acmeada");
    expect(callers[0]?.toJSON()).toMatchObject({ mode: "bearer", tenantId: "acme", userId: "ada", scopes: ["read"] });

    const none = await send(url, {});
    expect([none.status, none.body.error.code, none.headers.get("www-authenticate")]).toEqual([
      401,
      -32060,
      'Bearer realm="modes"',
    ]);
    for (const token of [await jwt({ sub: "ada", org: "acme" }, "https://evil.example/"), "not-a-jwt"]) {
      const refused = await send(url, { authorization: `Bearer ${token}` });
      expect([refused.status, refused.body.error.message]).toEqual([401, "The bearer token was refused"]);
      expect(refused.headers.get("www-authenticate")).toBe(
        'Bearer realm="modes", error="invalid_token", error_description="The bearer token was refused"',
      );
    }
  });

  it("declares the bearer scheme on the card", async () => {
    const { url } = await serve({ auth: bearer });
    expect(await card(url)).toMatchObject({
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: "Bearer", bearerFormat: "JWT" } } },
      securityRequirements: [{ schemes: { bearer: {} } }],
    });
  });
});

describe("apiKey", () => {
  const keys = { "key-of-ci": { principal: "ci" }, "key-of-ops": { tenantId: "ops", userId: "oncall" } };

  it("lets a listed key in as its caller and refuses a missing or unknown key, on every binding alike", async () => {
    const agent = new AgentBuilder({
      name: "keyed",
      auth: { mode: "apiKey", keys },
      logger: createLogger({ level: "silent" }),
    });
    agent.skill("whoami", (ctx) => ({ output: ctx.identity.principal }));
    const server = await listen(agent, { port: 0, grpcPort: 0 });
    running.push(server);
    const ok = await rpc(server.url, "SendMessage", whoami(), { ...V1, "X-API-Key": "key-of-ops" });
    expect(ok.body.result.task.status.message.parts[0].text).toBe("3:opsoncall");
    const challenge = 'ApiKey realm="keyed", in="header", name="X-API-Key"';
    const missing = await rpc(server.url, "ListTasks", {}, V1);
    expect([missing.status, missing.body.error.message, missing.headers.get("www-authenticate")]).toEqual([
      401,
      "This agent requires an API key (X-API-Key)",
      challenge,
    ]);
    const wrong = await rpc(server.url, "ListTasks", {}, { ...V1, "X-API-Key": "key-of-c" });
    expect([wrong.status, wrong.body.error.message]).toEqual([401, "The API key was refused"]);
    const grpc = grpcWire(server.grpcTarget as string);
    try {
      const refused = await grpc.unary("ListTasks", {}, { "x-api-key": "guess" });
      expect([refused.status, refused.reason, refused.challenge]).toEqual([16, "UNAUTHENTICATED", challenge]);
      const listed = await grpc.unary("ListTasks", {}, { "x-api-key": "key-of-ops" });
      expect(listed.result).toMatchObject({ totalSize: 1 });
      const others = await grpc.unary("ListTasks", {}, { "x-api-key": "key-of-ci" });
      expect(others.result).toMatchObject({ tasks: [], totalSize: 0 });
    } finally {
      grpc.close();
    }
  });

  it("takes its own header name and a lookup of its own, and declares the header on the card", async () => {
    const { url } = await serve({
      auth: {
        mode: "apiKey",
        headerName: "X-Partner-Key",
        keys: (key) => (key.startsWith("partner-") ? { principal: key.slice(8) } : undefined),
      },
    });
    expect((await send(url, { "X-Partner-Key": "partner-globex" })).body.result.task.status.message.parts[0].text).toBe(
      "globex",
    );
    expect((await send(url, { "X-API-Key": "partner-globex" })).status).toBe(401);
    expect(await card(url)).toMatchObject({
      securitySchemes: { apiKey: { apiKeySecurityScheme: { location: "header", name: "X-Partner-Key" } } },
      securityRequirements: [{ schemes: { apiKey: {} } }],
    });
  });

  it("refuses an empty key when it is listed", () => {
    expect(() => new AgentBuilder({ name: "x", auth: { mode: "apiKey", keys: { "": { principal: "p" } } } })).toThrow(
      "an API key cannot be empty",
    );
  });
});

describe("custom", () => {
  it("is asked who is calling; undefined is 401 with its challenge, PermissionDeniedError 403; the card lists its schemes", async () => {
    const { url } = await serve({
      auth: {
        mode: "custom",
        securitySchemes: {
          mtls: { scheme: { case: "mtlsSecurityScheme", value: { description: "client certificates" } } },
        },
        challenge: 'Mutual realm="modes"',
        authenticate(request) {
          // What a TLS-terminating proxy in front says about the client certificate.
          const subject = headerValue(request.headers, "x-client-subject");
          if (subject === "CN=revoked") throw new PermissionDeniedError("This certificate was revoked");
          return subject ? { principal: subject } : undefined;
        },
      },
    });
    expect((await send(url, { "x-client-subject": "CN=ada" })).body.result.task.status.message.parts[0].text).toBe(
      "CN=ada",
    );
    const refused = await send(url, {});
    expect([refused.status, refused.body.error.code, refused.headers.get("www-authenticate")]).toEqual([
      401,
      -32060,
      'Mutual realm="modes"',
    ]);
    const revoked = await send(url, { "x-client-subject": "CN=revoked" });
    expect([revoked.status, revoked.body.error.code, revoked.body.error.message]).toEqual([
      403,
      -32061,
      "This certificate was revoked",
    ]);
    expect(revoked.headers.get("www-authenticate")).toBeNull();
    expect(await card(url)).toMatchObject({
      securitySchemes: { mtls: { mtlsSecurityScheme: { description: "client certificates" } } },
      securityRequirements: [{ schemes: { mtls: {} } }],
    });
  });

  it("answers a check that throws as a refusal (401), never as a caller let in", async () => {
    const { url } = await serve({
      auth: {
        mode: "custom",
        securitySchemes: { bearer: { scheme: { case: "httpAuthSecurityScheme", value: { scheme: "Bearer" } } } },
        authenticate() {
          throw new Error("the identity provider is down");
        },
      },
    });
    const refused = await send(url, { authorization: "Bearer x" });
    expect([refused.status, refused.body.error.message]).toEqual([401, "The call's credentials were refused"]);
    expect(JSON.stringify(refused.body)).not.toContain("identity provider");
  });

  it("must declare the schemes it checks", () => {
    expect(
      () =>
        new AgentBuilder({
          name: "x",
          auth: { mode: "custom", securitySchemes: {}, authenticate: () => ({ principal: "p" }) },
        }),
    ).toThrow("must declare the securitySchemes it checks");
  });
});

describe("trustedProxy", () => {
  it("takes the caller from the pod headers a proxy set, refuses a call without them, and keeps users apart", async () => {
    const { url, callers } = await serve({ auth: "trustedProxy" });
    const ada = { "X-NovaOS-Tenant-Id": "acme", "X-NovaOS-User-Id": "ada", "X-NovaOS-Execution-Token": "tok" };
    const bob = { "X-NovaOS-Tenant-Id": "acme", "X-NovaOS-User-Id": "bob" };
    const task = (await send(url, ada)).body.result.task;
    expect(callers[0]?.toJSON()).toMatchObject({ mode: "trustedProxy", tenantId: "acme", userId: "ada" });
    expect(callers[0]?.token).toBe("tok");
    expect((await rpc(url, "GetTask", { id: task.id }, { ...V1, ...bob })).body.error.code).toBe(-32001);
    expect((await rpc(url, "ListTasks", {}, { ...V1, ...bob })).body.result.totalSize).toBe(0);
    expect((await rpc(url, "ListTasks", {}, { ...V1, ...ada })).body.result.totalSize).toBe(1);
    const partials: Record<string, string>[] = [{}, { "X-NovaOS-Tenant-Id": "acme" }, { "X-NovaOS-User-Id": "ada" }];
    for (const partial of partials) {
      const refused = await rpc(url, "ListTasks", {}, { ...V1, ...partial });
      expect([refused.status, refused.body.error.message]).toEqual([
        401,
        "The proxy in front of this agent did not say who is calling (X-NovaOS-Tenant-Id, X-NovaOS-User-Id)",
      ]);
    }
    // The card says what the proxy requires: the NovaOS execution token.
    expect(await card(url)).toMatchObject({
      securitySchemes: { executionToken: { httpAuthSecurityScheme: { scheme: "Bearer", bearerFormat: "JWT" } } },
      securityRequirements: [{ schemes: { executionToken: {} } }],
    });
  });
});

describe("none", () => {
  it("authenticates nobody and believes no pod header: every caller is the one anonymous caller", async () => {
    const { url, callers } = await serve({ auth: "none" });
    const created = (await send(url, { "X-NovaOS-Tenant-Id": "t-1", "X-NovaOS-User-Id": "ada" })).body.result.task;
    expect(callers[0]?.anonymous).toBe(true);
    expect(callers[0]?.tenantId).toBe("");
    const elsewhere = { ...V1, "X-NovaOS-Tenant-Id": "t-2", "X-NovaOS-User-Id": "bob" };
    expect((await rpc(url, "GetTask", { id: created.id }, elsewhere)).body.result.id).toBe(created.id);
    const served = await card(url);
    expect(served.securitySchemes).toBeUndefined();
    expect(served.securityRequirements).toBeUndefined();
  });

  it("refuses an extended card, which is for authenticated callers only", () => {
    expect(() => new AgentBuilder({ name: "x", auth: "none", extendedAgentCard: () => undefined })).toThrow(
      "The extended agent card is for authenticated callers",
    );
  });
});

describe("the card's security follows the auth mode", () => {
  it("refuses card options that restate it once a mode is chosen, and passes them through without one", async () => {
    const security = {
      securitySchemes: { bearer: { scheme: { case: "httpAuthSecurityScheme" as const, value: { scheme: "Bearer" } } } },
    };
    const agent = new AgentBuilder({ name: "x", auth: "trustedProxy" });
    expect(() => agent.toAgentCard(security)).toThrow("follow from AgentBuilder({ auth })");
    expect(() => nodeHandler(agent, { agentCard: { securityRequirements: [] } })).toThrow("follow from");
    await expect(listen(agent, { port: 0, agentCard: security })).rejects.toThrow("follow from");
    const unchosen = new AgentBuilder({ name: "y" });
    expect(Object.keys(unchosen.toAgentCard(security).securitySchemes)).toEqual(["bearer"]);
  });
});

describe("refusals", () => {
  it("are logged at warn with the binding and the reason, never the credential", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({
      level: "warn",
      destination: new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    });
    const { url } = await serve({ auth: { mode: "apiKey", keys: { "key-of-ci": { principal: "ci" } } }, logger });
    await send(url, { "X-API-Key": "guessed-key-123" });
    await send(url, {});
    await send(url, { "X-API-Key": "key-of-ci" });
    expect(lines.map(({ level, message, binding, reason }) => ({ level, message, binding, reason }))).toEqual([
      { level: "warn", message: "call refused", binding: "JSONRPC", reason: "The API key was refused" },
      {
        level: "warn",
        message: "call refused",
        binding: "JSONRPC",
        reason: "This agent requires an API key (X-API-Key)",
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain("guessed-key-123");
  });
});
