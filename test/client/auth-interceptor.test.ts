/** AuthInterceptor + CredentialService: the scheme comes from the card, the credential from the service. */
import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentCardSchema } from "../../gen/a2a_pb.js";
import { AuthInterceptor, formatCredential } from "../../src/client/auth-interceptor.js";
import { Client } from "../../src/client/client.js";
import {
  type CredentialService,
  InMemoryContextCredentialStore,
  SESSION_ID_STATE_KEY,
} from "../../src/client/credential-service.js";
import type { ClientCallContext } from "../../src/client/interceptors.js";
import { ApiKeyAuth, BearerTokenAuth } from "../../src/http/auth.js";
import { type RecordedRequest, sendJson, startHttpServer, type TestHttpServer } from "./support/http-server.js";

let server: TestHttpServer;
beforeAll(async () => {
  server = await startHttpServer((req, res) =>
    sendJson(res, 200, {
      jsonrpc: "2.0",
      id: JSON.parse(req.body).id,
      result: { id: "t1", status: { state: "TASK_STATE_COMPLETED" } },
    }),
  );
});
afterAll(async () => {
  await server.close();
});

const SCHEMES: JsonObject = {
  bearer: { httpAuthSecurityScheme: { scheme: "Bearer" } },
  basic: { httpAuthSecurityScheme: { scheme: "Basic" } },
  oauth: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: "https://t.example", scopes: {} } } } },
  oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: "https://o.example/.well-known" } },
  key: { apiKeySecurityScheme: { location: "header", name: "X-Agent-Key" } },
  queryKey: { apiKeySecurityScheme: { location: "query", name: "key" } },
  mtls: { mtlsSecurityScheme: {} },
};

function card(requirements: string[][], skills: JsonObject[] = []) {
  return fromJson(AgentCardSchema, {
    name: "secured",
    description: "",
    version: "1",
    supportedInterfaces: [
      { url: server?.url ?? "http://agent.invalid", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    ],
    capabilities: { streaming: true },
    securitySchemes: SCHEMES,
    securityRequirements: requirements.map((names) => ({
      schemes: Object.fromEntries(names.map((n) => [n, { list: [] }])),
    })),
    defaultInputModes: [],
    defaultOutputModes: [],
    skills,
  });
}

/** A service answering from a fixed table, recording what it was asked. */
function table(entries: Record<string, string | Record<string, string>>, asked: string[] = []): CredentialService {
  return {
    getCredentials: async (scheme: string) => {
      asked.push(scheme);
      return entries[scheme];
    },
  };
}

async function headersSent(client: Client, call: (c: Client) => Promise<unknown> = (c) => c.getTask("t1")) {
  await call(client);
  return (server.requests.at(-1) as RecordedRequest).headers;
}

describe("formatCredential", () => {
  const schemes = card([]).securitySchemes;
  it.each([
    ["bearer", { Authorization: "Bearer c" }],
    ["basic", { Authorization: "Basic c" }],
    ["oauth", { Authorization: "Bearer c" }],
    ["oidc", { Authorization: "Bearer c" }],
    ["key", { "X-Agent-Key": "c" }],
    ["queryKey", undefined],
    ["mtls", undefined],
  ])("%s", (name, expected) => {
    expect(formatCredential(schemes[name] as never, "c")).toEqual(expected);
  });

  it("uses ready headers unchanged", () => {
    expect(formatCredential(schemes.queryKey as never, { "X-Custom": "v" })).toEqual({ "X-Custom": "v" });
  });
});

describe("AuthInterceptor", () => {
  it("formats the credential for the first requirement the service can satisfy", async () => {
    const asked: string[] = [];
    const auth = new AuthInterceptor({ credentialService: table({ key: "k-1" }, asked) });
    await using client = new Client({
      baseUrl: server.url,
      agentCard: card([["bearer"], ["key"]]),
      interceptors: [auth],
    });
    const headers = await headersSent(client);
    expect(headers["x-agent-key"]).toBe("k-1");
    expect(headers.authorization).toBeUndefined();
    expect(asked).toEqual(["bearer", "key"]);
  });

  it("needs every scheme of one requirement (AND), else tries the next (OR)", async () => {
    const auth = new AuthInterceptor({ credentialService: table({ bearer: "b", oidc: "o" }) });
    await using partial = new Client({
      baseUrl: server.url,
      agentCard: card([["bearer", "key"], ["oidc"]]),
      interceptors: [auth],
    });
    const headers = await headersSent(partial);
    expect(headers.authorization).toBe("Bearer o");
    expect(headers["x-agent-key"]).toBeUndefined();

    const both = new AuthInterceptor({ credentialService: table({ bearer: "b", key: "k" }) });
    await using full = new Client({ baseUrl: server.url, agentCard: card([["bearer", "key"]]), interceptors: [both] });
    const all = await headersSent(full);
    expect([all.authorization, all["x-agent-key"]]).toEqual(["Bearer b", "k"]);
  });

  it("prefers the requirements of the skill being called", async () => {
    const auth = new AuthInterceptor({ credentialService: table({ bearer: "b", key: "k" }) });
    const skills = [
      {
        id: "admin",
        name: "Admin",
        description: "",
        tags: [],
        securityRequirements: [{ schemes: { key: { list: [] } } }],
      },
    ];
    await using client = new Client({
      baseUrl: server.url,
      agentCard: card([["bearer"]], skills),
      interceptors: [auth],
    });
    const onSkill = await headersSent(client, (c) => c.sendMessage("x", { skillId: "admin" }));
    expect([onSkill.authorization, onSkill["x-agent-key"]]).toEqual([undefined, "k"]);
    const elsewhere = await headersSent(client, (c) => c.sendMessage("x", { skillId: "other" }));
    expect([elsewhere.authorization, elsewhere["x-agent-key"]]).toEqual(["Bearer b", undefined]);
  });

  it("falls back to the auth provider when the service has nothing", async () => {
    const auth = new AuthInterceptor({ credentialService: table({}), auth: new ApiKeyAuth("fallback") });
    await using client = new Client({ baseUrl: server.url, agentCard: card([["bearer"]]), interceptors: [auth] });
    expect((await headersSent(client))["x-api-key"]).toBe("fallback");
  });

  it("without a card, asks for scheme '' and uses only ready headers", async () => {
    const asked: string[] = [];
    const ready = new AuthInterceptor({ credentialService: table({ "": { "X-Session": "s" } }, asked) });
    await using client = new Client({ baseUrl: server.url, interceptors: [ready] });
    expect((await headersSent(client))["x-session"]).toBe("s");
    expect(asked).toEqual([""]);

    const bare = new AuthInterceptor({ credentialService: table({ "": "secret" }), auth: new BearerTokenAuth("fb") });
    await using guessing = new Client({ baseUrl: server.url, interceptors: [bare] });
    const headers = await headersSent(guessing);
    expect(headers.authorization).toBe("Bearer fb");
    expect(JSON.stringify(headers)).not.toContain("secret");
  });

  it("reads the session's credentials from the call context (InMemoryContextCredentialStore)", async () => {
    const store = new InMemoryContextCredentialStore();
    store.setCredentials("alice", "bearer", "alice-token");
    store.setCredentials("", "bearer", "anonymous-token");
    await using client = new Client({
      baseUrl: server.url,
      agentCard: card([["bearer"]]),
      interceptors: [new AuthInterceptor({ credentialService: store })],
    });
    const alice = await headersSent(client, (c) =>
      c.getTask("t1", { context: { state: { [SESSION_ID_STATE_KEY]: "alice" } } }),
    );
    expect(alice.authorization).toBe("Bearer alice-token");
    expect((await headersSent(client)).authorization).toBe("Bearer anonymous-token");
  });
});

describe("InMemoryContextCredentialStore", () => {
  const context = (state: Record<string, unknown>): ClientCallContext => ({ state });

  it("answers by session and scheme, undefined when unknown", () => {
    const store = new InMemoryContextCredentialStore();
    store.setCredentials("s1", "bearer", "one");
    store.setCredentials("s1", "bearer", "two");
    expect(store.getCredentials("bearer", context({ sessionId: "s1" }))).toBe("two");
    expect(store.getCredentials("key", context({ sessionId: "s1" }))).toBeUndefined();
    expect(store.getCredentials("bearer", context({}))).toBeUndefined();
    expect(store.getCredentials("bearer", context({ sessionId: 42 }))).toBeUndefined();
  });

  it("never prints a credential", async () => {
    const store = new InMemoryContextCredentialStore();
    store.setCredentials("s", "bearer", "top-secret");
    const { inspect } = await import("node:util");
    expect(JSON.stringify(store)).not.toContain("top-secret");
    expect(inspect(store)).not.toContain("top-secret");
  });
});
