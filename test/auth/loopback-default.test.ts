/**
 * Safe by default: an agent built without an auth mode serves its own
 * machine only. `listen()` will not bind another address, the Fetch handler
 * (blind to where a call comes from) will not be made, and the node and gRPC
 * handlers refuse a call from any other address — on JSON-RPC, HTTP+JSON,
 * the gRPC fast path and connect-node alike. On loopback it keeps today's
 * behaviour: the NovaOS pod headers name the caller, as behind the auth-proxy.
 */
import { once } from "node:events";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { GetTaskRequestSchema } from "../../gen/a2a_pb.js";
import { PermissionDeniedError } from "../../src/a2a/errors.js";
import { listen } from "../../src/node/serve-agent.js";
import { createLogger } from "../../src/runtime/logger.js";
import { AgentBuilder } from "../../src/server/agent-builder.js";
import { AuthNotConfiguredError, isLoopbackAddress, isLoopbackHost } from "../../src/server/auth/loopback.js";
import type { ServerCallContext } from "../../src/server/call-context.js";
import { createGrpcNodeHandler } from "../../src/server/grpc/grpc-server.js";
import { rpc, serveAgent, userMessage, V1 } from "../server/support/agent-server.js";
import { grpcWire, httpJsonWire, jsonRpcWire } from "./support/auth-wire.js";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

function buildAgent(): AgentBuilder {
  const agent = new AgentBuilder({ name: "local", logger: createLogger({ level: "silent" }) });
  agent.skill("echo", (_ctx, text) => ({ output: text }));
  return agent;
}

/** Makes a request look as if it came from `address` (the socket is real; only its peer address is replaced). */
function asIfFrom(address: string, req: { socket: unknown }): void {
  const socket = req.socket as object;
  const seen = new Proxy(socket, {
    get: (target, name) => (name === "remoteAddress" ? address : Reflect.get(target, name)),
  });
  Object.defineProperty(req, "socket", { value: seen, configurable: true });
}

const REFUSAL =
  /^This agent has no authentication configured, so it answers callers on its own machine only, and this call does not; its operator must set new AgentBuilder\(\{ auth \}\)/;

describe("an agent without an auth mode", () => {
  it("serves callers on this machine, naming them by the pod headers: two users of a tenant are kept apart", async () => {
    const server = await serveAgent(buildAgent());
    stops.push(() => server.close());
    const ada = { ...V1, "X-NovaOS-Tenant-Id": "acme", "X-NovaOS-User-Id": "ada" };
    const bob = { ...V1, "X-NovaOS-Tenant-Id": "acme", "X-NovaOS-User-Id": "bob" };
    const task = (await rpc(server.url, "SendMessage", { message: userMessage("mine") }, ada)).body.result.task;
    expect((await rpc(server.url, "GetTask", { id: task.id }, ada)).body.result.id).toBe(task.id);
    expect((await rpc(server.url, "GetTask", { id: task.id }, bob)).body.error.code).toBe(-32001);
    expect((await rpc(server.url, "ListTasks", {}, bob)).body.result.totalSize).toBe(0);
  });

  it("refuses a call from another address with 403 on JSON-RPC and HTTP+JSON, saying what to set", async () => {
    const server = await serveAgent(buildAgent(), {
      wrap: (listener) => (req, res) => {
        asIfFrom("203.0.113.9", req);
        void listener(req, res);
      },
    });
    stops.push(() => server.close());
    for (const wire of [jsonRpcWire(server.url), httpJsonWire(server.url)]) {
      for (const answer of [
        await wire.unary("ListTasks", {}, {}),
        await wire.stream(
          "SendStreamingMessage",
          { message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "x" }] } },
          {},
        ),
      ]) {
        expect([answer.status, answer.reason], wire.name).toEqual([403, "PERMISSION_DENIED"]);
        expect(answer.message).toMatch(REFUSAL);
      }
    }
    // The card stays public.
    expect((await fetch(`${server.url}.well-known/agent-card.json`)).status).toBe(200);
  });

  it("refuses a call from another address with PERMISSION_DENIED on the gRPC fast path and on connect-node", async () => {
    const handler = createGrpcNodeHandler(buildAgent().requestHandler());
    const server = http2.createServer((req, res) => {
      asIfFrom("2001:db8::9", req);
      handler(req, res);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const target = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const wires = [grpcWire(target), grpcWire(target, { deadline: true })];
    stops.push(async () => {
      for (const wire of wires) wire.close();
      server.close();
      await once(server, "close");
    });
    for (const wire of wires) {
      for (const answer of [
        await wire.unary("GetTask", { id: "x" }, {}),
        await wire.stream("SubscribeToTask", { id: "x" }, {}),
      ]) {
        expect([answer.status, answer.reason], wire.name).toEqual([7, "PERMISSION_DENIED"]);
        expect(answer.message).toMatch(REFUSAL);
      }
    }
  });

  it("refuses to listen beyond this machine, naming what to set; loopback addresses are fine", async () => {
    for (const host of ["0.0.0.0", "::", "192.0.2.1"]) {
      await expect(listen(buildAgent(), { port: 0, host })).rejects.toThrow(
        new AuthNotConfiguredError(
          `Refusing to listen on ${host}: this agent has no authentication configured, so it serves its own machine only (listen on 127.0.0.1, or set new AgentBuilder({ auth }): { mode: "executionToken", verifier } inside NovaOS; { mode: "bearer" }, { mode: "apiKey" } or { mode: "custom" } outside it; "trustedProxy" behind a proxy that authenticates callers; or "none" to serve without authentication)`,
        ),
      );
    }
    for (const host of ["localhost", "127.0.0.2"]) {
      const server = await listen(buildAgent(), { port: 0, host });
      stops.push(() => server.close());
      expect((await rpc(server.url.replace("localhost", "127.0.0.1"), "ListTasks", {})).body.result.totalSize).toBe(0);
    }
    expect(["::1", "[::1]", "127.255.0.1", "LOCALHOST"].map(isLoopbackHost)).toEqual([true, true, true, true]);
    const loopback = ["::ffff:127.0.0.1", "::1", "0:0:0:0:0:0:0:1", "::ffff:7f00:1", "0:0:0:0:0:ffff:127.9.0.1"];
    const other = ["::ffff:10.0.0.1", "10.0.0.1", "127.0.0.256", "::", "1::1", "fe80::1%lo0", "::1::", "", undefined];
    expect(loopback.filter((address) => !isLoopbackAddress(address))).toEqual([]);
    expect(other.filter((address) => isLoopbackAddress(address))).toEqual([]);
  });

  it("will not make a Fetch handler, which cannot tell where a call comes from", () => {
    expect(() => buildAgent().fetchHandler()).toThrow(AuthNotConfiguredError);
    expect(() => buildAgent().fetchHandler()).toThrow(/^fetchHandler\(\) cannot tell where a call comes from/);
    expect(() => new AgentBuilder({ name: "open", auth: "none" }).fetchHandler()).not.toThrow();
  });

  it("refuses a call made in process that names no caller and no address", async () => {
    const handler = buildAgent().requestHandler();
    const context: ServerCallContext = {
      binding: "JSONRPC",
      headers: V1,
      signal: new AbortController().signal,
      responseHeaders: new Headers(),
    };
    await expect(handler.getTask(create(GetTaskRequestSchema, { id: "x" }), context)).rejects.toThrow(
      PermissionDeniedError,
    );
    await expect(
      handler.getTask(create(GetTaskRequestSchema, { id: "x" }), { ...context, remoteAddress: "127.0.0.1" }),
    ).rejects.toThrow("Task x not found");
  });
});
