/**
 * A gRPC agent, and two ways to call it (docs/serving.md, docs/client.md):
 * `Client` with the gRPC transport from `@novaos/client-sdk/grpc`, and a raw
 * connect-es client over the generated `A2AService` with the `a2a-version`
 * interceptor, its errors turned into the SDK's classes by `toA2AError`.
 * Run it: `npx tsx grpc-connect-es.ts`.
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { A2AService, a2aVersionInterceptor, Client, isTask, Role, taskText, toA2AError } from "@novaos/client-sdk";
import { grpcTransport } from "@novaos/client-sdk/grpc";
import { listen } from "@novaos/client-sdk/node";
import { AgentBuilder } from "@novaos/client-sdk/server";

const agent = new AgentBuilder({ name: "grpc-agent", version: "1.0.0" });
agent.skill("shout", async (_ctx, text) => ({ output: text.toUpperCase() }));
await using server = await listen(agent, { port: 0, grpcPort: 0 });

// The SDK's client, on the gRPC interface the served card lists.
await using client = new Client({ baseUrl: `grpc://${server.grpcTarget}`, transports: [grpcTransport()] });
const task = await client.sendMessage("hello over grpc", { skillId: "shout" });
console.log("Client:", isTask(task) ? taskText(task) : "(message)");

// connect-es directly, on the same port.
const raw = createClient(
  A2AService,
  createGrpcTransport({ baseUrl: `http://${server.grpcTarget}`, interceptors: [a2aVersionInterceptor] }),
);
const reply = await raw.sendMessage({
  message: {
    messageId: crypto.randomUUID(),
    role: Role.USER,
    parts: [{ content: { case: "text", value: "hello from connect-es" } }],
    metadata: { skillId: "shout" },
  },
});
console.log("connect-es:", reply.payload.case === "task" ? taskText(reply.payload.value) : "(message)");
try {
  await raw.getTask({ id: "no-such-task" });
} catch (error) {
  console.log("connect-es error as the SDK's class:", toA2AError(error).name);
}
