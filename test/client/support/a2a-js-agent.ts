/**
 * An @a2a-js/sdk 1.3.0 agent serving the same request handler over JSON-RPC
 * (`/jsonrpc`), HTTP+JSON (`/rest`) and gRPC, on port 0. The executor is
 * scripted by the first text part of the message:
 *
 * - `echo:<text>`   answers with a bare Message `<text>` (no task);
 * - `task`          SUBMITTED → WORKING → one artifact → COMPLETED;
 * - `stream:<n>`    a task with `n` artifact chunks, then COMPLETED;
 * - `input`         WORKING → INPUT_REQUIRED (an interrupt);
 * - `hold`          WORKING, then waits for `release(taskId)` (→ COMPLETED) or a cancel (→ CANCELED);
 * - `no-end`        WORKING, then the executor returns without a final state;
 * - `stream-error:<Name>` one WORKING frame, then the handler throws a2a-js `<Name>` mid-stream.
 *
 * `getTask("error:<Name>")` throws the a2a-js error `<Name>` on every binding.
 * Every call's headers and tenant are recorded in `calls`.
 */
import type { AddressInfo } from "node:net";
import * as a2aErrors from "@a2a-js/sdk/errors";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type RequestContext,
  type ServerCallContext,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { A2AService as A2AGrpcService, grpcService } from "@a2a-js/sdk/server/grpc";
import type { JsonObject } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import express from "express";

type JsAgentCard = ConstructorParameters<typeof DefaultRequestHandler>[0];
type JsTask = Awaited<ReturnType<DefaultRequestHandler["getTask"]>>;
type JsMessage = RequestContext["userMessage"];

const WORKING = 2;
const COMPLETED = 3;
const CANCELED = 5;
const INPUT_REQUIRED = 6;
const AGENT_ROLE = 2;

export interface RecordedCall {
  readonly method: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly tenant: string | undefined;
}

export interface A2AJsAgent {
  readonly jsonRpcUrl: string;
  readonly restUrl: string;
  readonly grpcUrl: string;
  /** The card as ProtoJSON (its a2a-js object form is the same for this card). */
  readonly cardJson: JsonObject;
  readonly calls: RecordedCall[];
  /** Completes a `hold` task. */
  release(taskId: string): void;
  close(): Promise<void>;
}

export interface A2AJsAgentOptions {
  streaming?: boolean;
  tenant?: string;
}

function now(): string {
  return new Date().toISOString();
}

function textOf(message: JsMessage): string {
  for (const part of message.parts) if (part.content?.$case === "text") return part.content.value;
  return "";
}

function agentText(text: string, taskId = "", contextId = ""): JsMessage {
  return {
    messageId: `reply-${Math.random().toString(36).slice(2)}`,
    contextId,
    taskId,
    role: AGENT_ROLE,
    parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

class ScriptedExecutor implements AgentExecutor {
  readonly holds = new Map<string, (outcome: "completed" | "canceled") => void>();

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const text = textOf(context.userMessage);
    const { taskId, contextId } = context;
    const status = (state: number, message?: JsMessage) =>
      AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: now() }, metadata: undefined });
    const artifact = (index: number, append: boolean) =>
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: "out",
          name: "out",
          description: "",
          parts: [
            { content: { $case: "text", value: `chunk ${index}` }, metadata: undefined, filename: "", mediaType: "" },
          ],
          metadata: undefined,
          extensions: [],
        },
        append,
        lastChunk: false,
        metadata: undefined,
      });
    if (text.startsWith("echo:")) {
      bus.publish(AgentEvent.message(agentText(text.slice(5), "", contextId)));
      return;
    }
    const task: JsTask = context.task ?? {
      id: taskId,
      contextId,
      status: { state: 1, message: undefined, timestamp: now() },
      artifacts: [],
      history: [context.userMessage],
      metadata: undefined,
    };
    bus.publish(AgentEvent.task(task));
    bus.publish(status(WORKING));
    if (text === "task") {
      bus.publish(artifact(0, false));
      bus.publish(status(COMPLETED, agentText("done", taskId, contextId)));
    } else if (text.startsWith("stream:")) {
      const n = Number(text.slice(7));
      for (let i = 0; i < n; i++) bus.publish(artifact(i, i > 0));
      bus.publish(status(COMPLETED));
    } else if (text === "input") {
      bus.publish(status(INPUT_REQUIRED, agentText("which one?", taskId, contextId)));
    } else if (text === "hold") {
      const outcome = await new Promise<"completed" | "canceled">((resolve) => this.holds.set(taskId, resolve));
      this.holds.delete(taskId);
      if (outcome === "completed") {
        bus.publish(artifact(0, false));
        bus.publish(status(COMPLETED));
      }
    }
    // `no-end` and `stream-error:*` stop at WORKING.
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const hold = this.holds.get(taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: "",
        status: { state: CANCELED, message: undefined, timestamp: now() },
        metadata: undefined,
      }),
    );
    hold?.("canceled");
  }
}

function a2aJsError(name: string): Error {
  const ErrorClass = (a2aErrors as unknown as Record<string, new (message?: string) => Error>)[name];
  if (!ErrorClass) throw new Error(`no a2a-js error ${name}`);
  return new ErrorClass(`${name} raised by the test agent`);
}

/** DefaultRequestHandler plus the scripted errors and call recording. */
function scriptedHandler(inner: DefaultRequestHandler, calls: RecordedCall[]): DefaultRequestHandler {
  const record = (method: string, context: ServerCallContext) =>
    calls.push({
      method,
      headers: (context.state.get("headers") as RecordedCall["headers"]) ?? {},
      tenant: context.tenant,
    });
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || property === "getAgentCard") return value;
      const method = String(property);
      if (method === "getTask") {
        return async (params: { id: string }, context: ServerCallContext) => {
          record(method, context);
          if (params.id.startsWith("error:")) throw a2aJsError(params.id.slice(6));
          return value.call(target, params, context);
        };
      }
      if (method === "sendMessageStream") {
        return async function* (params: { message?: JsMessage }, context: ServerCallContext) {
          record(method, context);
          const text = params.message ? textOf(params.message) : "";
          const frames = value.call(target, params, context) as AsyncGenerator<unknown>;
          if (!text.startsWith("stream-error:")) {
            yield* frames;
            return;
          }
          for await (const frame of frames) {
            yield frame;
            break;
          }
          throw a2aJsError(text.slice(13));
        };
      }
      return (...args: unknown[]) => {
        record(method, args[1] as ServerCallContext);
        return value.apply(target, args);
      };
    },
  });
}

export async function startA2AJsAgent(options: A2AJsAgentOptions = {}): Promise<A2AJsAgent> {
  const app = express();
  const http = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => http.once("listening", () => resolve()));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const grpcServer = new grpc.Server();
  const grpcPort = await new Promise<number>((resolve, reject) =>
    grpcServer.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve(port),
    ),
  );
  const tenant = options.tenant ?? "";
  const urls = {
    jsonRpcUrl: `${origin}/jsonrpc`,
    restUrl: `${origin}/rest`,
    grpcUrl: `http://127.0.0.1:${grpcPort}`,
  };
  const cardJson: JsonObject = {
    name: "a2a-js test agent",
    description: "Scripted agent for client interop tests",
    version: "1.0.0",
    supportedInterfaces: [
      { url: urls.jsonRpcUrl, protocolBinding: "JSONRPC", tenant, protocolVersion: "1.0" },
      { url: urls.restUrl, protocolBinding: "HTTP+JSON", tenant, protocolVersion: "1.0" },
      { url: urls.grpcUrl, protocolBinding: "GRPC", tenant, protocolVersion: "1.0" },
    ],
    capabilities: {
      streaming: options.streaming ?? true,
      pushNotifications: true,
      extendedAgentCard: true,
      extensions: [],
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      {
        id: "chat",
        name: "Chat",
        description: "Talks",
        tags: [],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  const card = cardJson as unknown as JsAgentCard;

  const executor = new ScriptedExecutor();
  const calls: RecordedCall[] = [];
  const inner = new DefaultRequestHandler(
    card as never,
    new InMemoryTaskStore(),
    executor,
    undefined,
    new InMemoryPushNotificationStore(),
    undefined,
    async () => ({ ...(card as object), name: "a2a-js test agent (extended)" }) as never,
  );
  const requestHandler = scriptedHandler(inner, calls);
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: requestHandler }));
  app.use("/jsonrpc", jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.use("/rest", restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  grpcServer.addService(A2AGrpcService, grpcService({ requestHandler, userBuilder: UserBuilder.noAuthentication }));

  return {
    ...urls,
    cardJson,
    calls,
    release(taskId) {
      executor.holds.get(taskId)?.("completed");
    },
    async close() {
      for (const hold of executor.holds.values()) hold("canceled");
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      grpcServer.forceShutdown();
    },
  };
}
