/**
 * Clients authenticate against an agent with `auth: { mode: "executionToken" }`
 * on all three bindings, each through its own auth machinery: our `Client`
 * with an `AuthInterceptor` whose CredentialService answers the scheme the
 * served card derives, and @a2a-js/sdk 1.3.0's client with a call
 * interceptor setting `Authorization` (JSON-RPC, REST, gRPC), or its
 * `createAuthenticatingFetchWithRetry`, which answers our 401 challenge by
 * retrying with a token. A client without a token is refused on each, with
 * the same typed error from our `Client` on every binding.
 */
import * as a2a from "@a2a-js/sdk";
import {
  type Client as A2AJsClient,
  type AuthenticationHandler,
  type CallInterceptor,
  ClientFactory,
  ClientFactoryOptions,
  createAuthenticatingFetchWithRetry,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import { fromJson } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentCard, AgentCardSchema, type Task } from "../../gen/a2a_pb.js";
import { UnauthenticatedError } from "../../src/a2a/errors.js";
import { isLastFrame } from "../../src/a2a/stream-frame.js";
import { taskText } from "../../src/a2a/text.js";
import { AuthInterceptor } from "../../src/client/auth-interceptor.js";
import { Client } from "../../src/client/client.js";
import type { CredentialService } from "../../src/client/credential-service.js";
import { NovaOSAuthenticationError } from "../../src/errors/novaos-errors.js";
import { grpcTransport } from "../../src/grpc/index.js";
import { type AgentServer, listen } from "../../src/node/serve-agent.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { type Gateway, runClaims, startGateway } from "../auth/support/execution-tokens.js";

const BINDINGS = ["JSONRPC", "HTTP+JSON", "GRPC"] as const;

let gateway: Gateway;
let server: AgentServer;
let card: AgentCard;
let runs = 0;

/** A token of a new run of ada's: a run's messages continue one task, so each call here is a run of its own. */
const newRunToken = () => gateway.sign(runClaims("acme", "ada", `run-${++runs}`));

beforeAll(async () => {
  gateway = await startGateway();
  const agent = new AgentBuilder({
    name: "guarded",
    auth: { mode: "executionToken", verifier: gateway.verifier() },
    logger: createLogger({ level: "silent" }),
  });
  agent.skill("whoami", (ctx, text) => ({ output: `${ctx.identity.userId} said ${text}` }));
  server = await listen(agent, { port: 0, grpcPort: 0 });
  card = fromJson(AgentCardSchema, await (await fetch(`${server.url}.well-known/agent-card.json`)).json(), {
    ignoreUnknownFields: true,
  });
});

afterAll(async () => {
  await server.close();
  await gateway[Symbol.asyncDispose]();
});

describe("our Client", () => {
  it("finds the scheme on the served card and authenticates with its AuthInterceptor on every binding", async () => {
    expect(Object.keys(card.securitySchemes)).toEqual(["executionToken"]);
    const asked: string[] = [];
    const credentials: CredentialService = {
      getCredentials(scheme) {
        asked.push(scheme);
        return newRunToken();
      },
    };
    for (const binding of BINDINGS) {
      await using client = Client.fromAgentCard(card, {
        transports: [grpcTransport()],
        config: { preferredBindings: [binding] },
        interceptors: [new AuthInterceptor({ credentialService: credentials })],
      });
      expect(client.binding).toBe(binding);
      const task = (await client.sendMessage(`over ${binding}`)) as Task;
      expect(taskText(task)).toBe(`ada said over ${binding}`);
      expect((await client.getTask(task.id)).id).toBe(task.id);
      const frames = [];
      for await (const frame of client.sendStreamingMessage("streamed")) {
        frames.push(frame);
        if (isLastFrame(frame)) break;
      }
      expect(frames.length).toBeGreaterThan(0);
    }
    expect(new Set(asked)).toEqual(new Set(["executionToken"]));
  });

  it("gets the agent's UnauthenticatedError, an authentication error, on every binding without a credential", async () => {
    for (const binding of BINDINGS) {
      await using client = Client.fromAgentCard(card, {
        transports: [grpcTransport()],
        config: { preferredBindings: [binding] },
      });
      const refused = await client.listTasks().catch((error: unknown) => error);
      expect(refused, binding).toBeInstanceOf(UnauthenticatedError);
      expect(refused, binding).toBeInstanceOf(NovaOSAuthenticationError);
      expect((refused as Error).message).toBe("This agent requires a NovaOS execution token (Authorization: Bearer)");
    }
  });
});

describe("@a2a-js/sdk 1.3.0's client", () => {
  const factory = (
    binding: (typeof BINDINGS)[number],
    options: { interceptor?: CallInterceptor; fetch?: typeof fetch } = {},
  ) =>
    new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [
          new JsonRpcTransportFactory(options.fetch ? { fetchImpl: options.fetch } : {}),
          new RestTransportFactory(options.fetch ? { fetchImpl: options.fetch } : {}),
          new GrpcTransportFactory(),
        ],
        preferredTransports: [binding],
        ...(options.interceptor ? { clientConfig: { interceptors: [options.interceptor] } } : {}),
      }),
    );
  const request = (text: string) =>
    a2a.SendMessageRequest.fromJSON({
      message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ text }] },
    });
  const textOf = (task: unknown) => {
    const content = (task as a2a.Task).status?.message?.parts[0]?.content;
    return content?.$case === "text" ? content.value : undefined;
  };

  /** Sets `Authorization` on every call: the service parameters become HTTP headers or gRPC metadata. */
  const bearer: CallInterceptor = {
    async before(args) {
      args.options = {
        ...args.options,
        serviceParameters: { ...args.options?.serviceParameters, Authorization: `Bearer ${await newRunToken()}` },
      };
    },
    async after() {},
  };

  it("authenticates with a call interceptor on JSON-RPC, REST and gRPC", async () => {
    for (const binding of BINDINGS) {
      const client: A2AJsClient = await factory(binding, { interceptor: bearer }).createFromUrl(server.url);
      expect(client.transport.protocolName).toBe(binding);
      const task = await client.sendMessage(request(`over ${binding}`));
      expect(textOf(task)).toBe(`ada said over ${binding}`);
      const listed = await client.listTasks(a2a.ListTasksRequest.fromJSON({}));
      expect(listed.totalSize).toBeGreaterThan(0);
    }
  });

  it("is refused on every binding without one", async () => {
    for (const binding of BINDINGS) {
      const client = await factory(binding).createFromUrl(server.url);
      await expect(client.listTasks(a2a.ListTasksRequest.fromJSON({})), binding).rejects.toThrow(
        /execution token|UNAUTHENTICATED|401/,
      );
    }
  });

  it("answers our 401 challenge with createAuthenticatingFetchWithRetry on JSON-RPC and REST", async () => {
    const challenges: string[] = [];
    const handler: AuthenticationHandler = {
      headers: async () => ({}),
      async shouldRetryWithHeaders(_request, response) {
        if (response.status !== 401) return undefined;
        challenges.push(response.headers.get("www-authenticate") ?? "");
        return { Authorization: `Bearer ${await newRunToken()}` };
      },
    };
    for (const binding of ["JSONRPC", "HTTP+JSON"] as const) {
      const client = await factory(binding, {
        fetch: createAuthenticatingFetchWithRetry(fetch, handler),
      }).createFromUrl(server.url);
      expect(textOf(await client.sendMessage(request("after a challenge")))).toBe("ada said after a challenge");
    }
    expect(challenges).toEqual(['Bearer realm="guarded"', 'Bearer realm="guarded"']);
  });
});
