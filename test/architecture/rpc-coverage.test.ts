/**
 * Every RPC of the generated binding table (`src/a2a/bindings.ts` over gen/)
 * is called and served: `Client` has a method for it, the server's request
 * handler implements it, and each binding (JSON-RPC, HTTP+JSON, gRPC) routes
 * it to the handler. A spec bump that adds an RPC fails here (and the
 * typecheck fails on `clientRpcs`) until every one of them has it.
 */
import { create, type DescMessage } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type A2ABinding, type A2AMethodName, a2aBindingList, httpRoutesOf } from "../../src/a2a/bindings.js";
import { Client } from "../../src/client/client.js";
import { AgentRequestHandler } from "../../src/server/agent-request-handler.js";
import { type A2AHandlerMethodName, handlerMethodName } from "../../src/server/request-handler.js";
import { HandlerDouble } from "../server-bindings/support/handler-double.js";
import { type ServedBindings, serveBindings } from "../server-bindings/support/serve-bindings.js";

/** Fails the typecheck when the table has an RPC that `Client` has no method for. */
const clientRpcs: Pick<Client, A2AHandlerMethodName<A2AMethodName>> = Client.prototype;

const RPCS: readonly string[] = a2aBindingList.map((binding) => binding.name);

/** The RPCs of `rpcs` that `target` has no method for, by method name. */
function missingMethods(target: object, rpcs: readonly string[]): string[] {
  return rpcs
    .map((rpc) => handlerMethodName(rpc as A2AMethodName))
    .filter((name) => typeof (target as Record<string, unknown>)[name] !== "function");
}

describe("every RPC of the binding table has a caller and a server", () => {
  it("Client has a method for every RPC", () => {
    expect(missingMethods(clientRpcs, RPCS)).toEqual([]);
  });

  it("the server's request handler implements every RPC", () => {
    expect(missingMethods(AgentRequestHandler.prototype, RPCS)).toEqual([]);
  });

  it("notices an RPC the table gains", () => {
    expect(missingMethods(Client.prototype, [...RPCS, "FrobnicateTask"])).toEqual(["frobnicateTask"]);
    expect(missingMethods(AgentRequestHandler.prototype, [...RPCS, "FrobnicateTask"])).toEqual(["frobnicateTask"]);
  });
});

describe("every binding routes every RPC of the table to the handler", () => {
  // An empty request reaches the handler (which answers UnsupportedOperationError) or is refused as that
  // RPC's request (REQUIRED fields missing): either way the binding knew the RPC.
  const double = new HandlerDouble();
  let served: ServedBindings;
  beforeAll(async () => {
    served = await serveBindings(double.handler);
  });
  afterAll(() => served[Symbol.asyncDispose]());

  it.each(a2aBindingList.map((binding) => [binding.name, binding] as const))(
    "JSON-RPC routes %s",
    async (_, binding) => {
      const response = await fetch(served.httpUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "a2a-version": "1.0" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: binding.jsonRpcMethod, params: {} }),
      });
      const { error } = await response.json();
      expect(["UNSUPPORTED_OPERATION", "INVALID_PARAMS"]).toContain(error.data[0].reason);
    },
  );

  it.each(a2aBindingList.map((binding) => [binding.name, binding] as const))(
    "HTTP+JSON routes every route of %s",
    async (_, binding: A2ABinding) => {
      for (const route of httpRoutesOf(binding)) {
        const path = route.segments.map((s) => ("literal" in s ? s.literal : "x")).join("/");
        const response = await fetch(`${served.httpUrl}/${path}${route.verb ? `:${route.verb}` : ""}`, {
          method: route.method,
          headers: { "content-type": "application/json", "a2a-version": "1.0" },
          ...(route.body ? { body: "{}" } : {}),
        });
        const { error } = await response.json();
        expect(["UNSUPPORTED_OPERATION", "INVALID_PARAMS"], route.template).toContain(error.details[0].reason);
      }
    },
  );

  it.each(a2aBindingList.map((binding) => [binding.name, binding] as const))("gRPC serves %s", async (_, binding) => {
    const method = (served.grpc() as unknown as Record<string, (request: unknown) => unknown>)[
      handlerMethodName(binding.name)
    ];
    const request = create(binding.input as DescMessage);
    let code: Code | undefined;
    try {
      const answer = method?.(request);
      if (binding.kind === "server_streaming") for await (const _ of answer as AsyncIterable<unknown>);
      else await answer;
    } catch (error) {
      code = ConnectError.from(error).code;
    }
    expect([Code.FailedPrecondition, Code.InvalidArgument]).toContain(code);
  });
});
