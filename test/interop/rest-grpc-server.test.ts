/**
 * Interop is the truth: @a2a-js/sdk 1.3.0's own clients drive our server.
 * `ClientFactory` reads the card our AgentBuilder serves, picks the
 * HTTP+JSON interface (`RestTransportFactory`) or the gRPC one
 * (`GrpcTransportFactory`, @grpc/grpc-js), and every scenario of the
 * equivalence suite must give the same outcome through it as through our
 * own JSON-RPC wire.
 */

import * as a2a from "@a2a-js/sdk";
import { type Client, ClientFactory, ClientFactoryOptions, RestTransportFactory } from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import type { DescMessage, JsonObject } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StreamResponseSchema } from "../../gen/a2a_pb.js";
import { type A2AMethodName, a2aServiceBindings } from "../../src/a2a/bindings.js";
import { listen } from "../../src/node/index.js";
import type { AgentServer } from "../../src/node/serve-agent.js";
import {
  type BindingDriver,
  canonical,
  jsonRpcDriver,
  V1,
  WireError,
} from "../server-bindings/support/binding-drivers.js";
import {
  buildAgent,
  expectEquivalent,
  REQUIRED_EXTENSION_SCENARIO,
  requiredExtension,
  SCENARIOS,
} from "../server-bindings/support/scenarios.js";

type Codec = { fromJSON(json: unknown): unknown; toJSON(message: unknown): unknown };
type Call = (params: unknown, options: { serviceParameters?: Record<string, string>; signal?: AbortSignal }) => unknown;

/** Each RPC as a2a-js's Client names it, with its ts-proto request and response codecs. */
const A2A_JS: Record<A2AMethodName, { method: string; input: Codec; output?: Codec }> = {
  SendMessage: { method: "sendMessage", input: a2a.SendMessageRequest },
  SendStreamingMessage: { method: "sendMessageStream", input: a2a.SendMessageRequest, output: a2a.StreamResponse },
  GetTask: { method: "getTask", input: a2a.GetTaskRequest, output: a2a.Task },
  ListTasks: { method: "listTasks", input: a2a.ListTasksRequest, output: a2a.ListTasksResponse },
  CancelTask: { method: "cancelTask", input: a2a.CancelTaskRequest, output: a2a.Task },
  SubscribeToTask: { method: "resubscribeTask", input: a2a.SubscribeToTaskRequest, output: a2a.StreamResponse },
  CreateTaskPushNotificationConfig: {
    method: "createTaskPushNotificationConfig",
    input: a2a.TaskPushNotificationConfig,
    output: a2a.TaskPushNotificationConfig,
  },
  GetTaskPushNotificationConfig: {
    method: "getTaskPushNotificationConfig",
    input: a2a.GetTaskPushNotificationConfigRequest,
    output: a2a.TaskPushNotificationConfig,
  },
  ListTaskPushNotificationConfigs: {
    method: "listTaskPushNotificationConfig",
    input: a2a.ListTaskPushNotificationConfigsRequest,
    output: a2a.ListTaskPushNotificationConfigsResponse,
  },
  DeleteTaskPushNotificationConfig: {
    method: "deleteTaskPushNotificationConfig",
    input: a2a.DeleteTaskPushNotificationConfigRequest,
  },
  GetExtendedAgentCard: {
    method: "getExtendedAgentCard",
    input: a2a.GetExtendedAgentCardRequest,
    output: a2a.AgentCard,
  },
};

/** a2a-js errors carry the ErrorInfo reason they were read from. */
function rethrow(error: unknown): never {
  const reason = (error as { reason?: unknown }).reason;
  if (typeof reason === "string" && reason !== "") throw new WireError(reason);
  throw error;
}

/** SendMessage's result comes back unwrapped (Task or Message): wrap it as the SendMessageResponse. */
function sendMessageResponse(result: unknown): JsonObject {
  return "status" in (result as object)
    ? { task: a2a.Task.toJSON(result as never) as JsonObject }
    : { message: a2a.Message.toJSON(result as never) as JsonObject };
}

/**
 * A BindingDriver over the transport an a2a-js `ClientFactory` picked from
 * our card. The transport sends exactly the service parameters it is given
 * (the Client would always add its own A2A-Version), so a scenario can also
 * send none.
 */
function a2aJsDriver(name: string, client: Client): BindingDriver {
  const callOf = (rpc: A2AMethodName): Call => {
    const transport = client.transport as unknown as Record<string, Call>;
    return transport[A2A_JS[rpc].method]!.bind(transport);
  };
  return {
    name,
    async call(rpc, request, headers = V1) {
      const spec = A2A_JS[rpc];
      let result: unknown;
      try {
        result = await callOf(rpc)(spec.input.fromJSON(request), { serviceParameters: headers });
      } catch (error) {
        rethrow(error);
      }
      if (rpc === "SendMessage") return canonical(a2aServiceBindings.SendMessage.output, sendMessageResponse(result));
      return spec.output ? canonical(a2aServiceBindings[rpc].output as DescMessage, spec.output.toJSON(result)) : {};
    },
    async *stream(rpc, request, headers = V1) {
      const spec = A2A_JS[rpc];
      const abort = new AbortController();
      try {
        const frames = callOf(rpc)(spec.input.fromJSON(request), { serviceParameters: headers, signal: abort.signal });
        for await (const frame of frames as AsyncIterable<unknown>) {
          yield canonical(StreamResponseSchema, spec.output!.toJSON(frame));
        }
      } catch (error) {
        rethrow(error);
      } finally {
        abort.abort();
      }
    },
    close() {},
  };
}

async function a2aJsClients(server: AgentServer): Promise<BindingDriver[]> {
  const factory = (preferred: "HTTP+JSON" | "GRPC") =>
    new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new RestTransportFactory(), new GrpcTransportFactory()],
        preferredTransports: [preferred],
      }),
    );
  const rest = await factory("HTTP+JSON").createFromUrl(server.url);
  const grpc = await factory("GRPC").createFromUrl(server.url);
  expect(rest.transport.protocolName).toBe("HTTP+JSON");
  expect(grpc.transport.protocolName).toBe("GRPC");
  return [
    // Our own JSON-RPC wire is the reference the a2a-js clients are compared with.
    jsonRpcDriver(server.url),
    a2aJsDriver("@a2a-js/sdk RestTransport", rest),
    a2aJsDriver("@a2a-js/sdk GrpcTransport", grpc),
  ];
}

describe("@a2a-js/sdk 1.3.0 REST and gRPC clients drive our server", () => {
  let server: AgentServer;
  let drivers: BindingDriver[];
  beforeAll(async () => {
    server = await listen(buildAgent(), { port: 0, grpcPort: 0 });
    drivers = await a2aJsClients(server);
  });
  afterAll(async () => {
    for (const d of drivers) d.close();
    await server.close();
  });

  it("finds the HTTP+JSON and gRPC interfaces on the card our server serves", async () => {
    const card = await (await fetch(`${server.url}.well-known/agent-card.json`)).json();
    expect(card.supportedInterfaces.map((i: { protocolBinding: string }) => i.protocolBinding)).toEqual([
      "JSONRPC",
      "HTTP+JSON",
      "GRPC",
    ]);
    // Clients that join paths by string concatenation reach `/message:send`, not `//message:send`.
    expect(card.supportedInterfaces.map((i: { url: string }) => i.url.endsWith("/"))).toEqual([false, false, false]);
  });

  for (const scenario of SCENARIOS) {
    it(scenario.name, () => expectEquivalent(drivers, scenario));
  }
});

describe("@a2a-js/sdk clients meet our required extensions", () => {
  let server: AgentServer;
  let drivers: BindingDriver[];
  beforeAll(async () => {
    server = await listen(buildAgent({ extensions: [requiredExtension()] }), { port: 0, grpcPort: 0 });
    drivers = await a2aJsClients(server);
  });
  afterAll(async () => {
    for (const d of drivers) d.close();
    await server.close();
  });

  it(REQUIRED_EXTENSION_SCENARIO.name, () => expectEquivalent(drivers, REQUIRED_EXTENSION_SCENARIO));
});
