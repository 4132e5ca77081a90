import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { propagation } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import {
  NovaOSAgentNotFoundError,
  NovaOSAuthenticationError,
  NovaOSConnectionError,
  NovaOSError,
  NovaOSRateLimitError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import { BearerTokenAuth } from "../../src/http/auth.js";
import { Attachment } from "../../src/platform/attachment.js";
import { GatewayClient } from "../../src/platform/gateway-client.js";
import { type ContractServer, type OperationHandler, startContractServer } from "./contract-server.js";

const TOKEN = "iam-token-1";
const INSTANCE = "3f6c1d0e-8a2b-4c5d-9e7f-0a1b2c3d4e5f";
const THREAD = "11111111-2222-4333-8444-555555555555";
const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

let server: ContractServer | undefined;
let gateway: GatewayClient | undefined;

afterEach(async () => {
  await gateway?.close();
  await server?.close();
  gateway = undefined;
  server = undefined;
});

async function start(handlers: Record<string, OperationHandler>, token = TOKEN) {
  server = await startContractServer({ spec: "gateway.yaml", handlers, bearerToken: TOKEN });
  gateway = new GatewayClient({ baseUrl: server.url, auth: new BearerTokenAuth(token), tenantId: "tenant-a" });
  return { server, gateway };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("GatewayClient.execute (contract)", () => {
  it("sends the spec's body, bearer token, tenant and trace headers, and reads the run id", async () => {
    const { server, gateway } = await start({
      execute: () => ({ status: 200, body: { run_id: "run-1", status: "started", queue: "default" } }),
    });
    const result = await gateway.execute({
      instanceId: INSTANCE,
      inputText: "Inspire me!",
      threadId: THREAD,
      conversationId: THREAD,
      attachments: [
        new Attachment({ type: "text/plain", data: new TextEncoder().encode("hi"), name: "note.txt" }),
        { type: "image/png", url: "https://files.example/cat.png" },
      ],
      customHeaders: { "x-app-version": "7" },
      traceparent: TRACEPARENT,
    });
    expect(result).toEqual({
      runId: "run-1",
      status: "started",
      output: undefined,
      raw: { run_id: "run-1", status: "started", queue: "default" },
    });
    expect(server.violations).toEqual([]);
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers["x-tenant-id"]).toBe("tenant-a");
    expect(request?.headers.traceparent).toBe(TRACEPARENT);
    expect(request?.body).toEqual({
      instance_id: INSTANCE,
      input_text: "Inspire me!",
      thread_id: THREAD,
      conversation_id: THREAD,
      attachments: [
        { type: "text/plain", data: "aGk=", name: "note.txt" },
        { type: "image/png", url: "https://files.example/cat.png" },
      ],
      custom_headers: { "x-app-version": "7" },
    });
  });

  it("carries the active trace context when an OpenTelemetry propagator is installed; an explicit one wins", async () => {
    const fromContext = "00-11111111111111111111111111111111-2222222222222222-01";
    propagation.setGlobalPropagator({
      inject: (_context, carrier, setter) => setter.set(carrier, "traceparent", fromContext),
      extract: (context) => context,
      fields: () => ["traceparent"],
    });
    try {
      const { server, gateway } = await start({ execute: () => ({ status: 200, body: { run_id: "r" } }) });
      await gateway.execute({ instanceId: INSTANCE, inputText: "x" });
      await gateway.execute({ instanceId: INSTANCE, inputText: "x", traceparent: TRACEPARENT });
      expect(server.requests.map((r) => r.headers.traceparent)).toEqual([fromContext, TRACEPARENT]);
      expect(server.violations).toEqual([]);
    } finally {
      propagation.disable();
    }
  });

  it("refuses a baseUrl that is not a URL", () => {
    expect(() => new GatewayClient({ baseUrl: "execution-gateway:8081/x y" })).toThrow(NovaOSValidationError);
  });

  it("omits empty attachments and reads a synchronous output", async () => {
    const { server, gateway } = await start({
      execute: () => ({ status: 200, body: { run_id: "run-2", status: "completed", output: { text: "done" } } }),
    });
    const result = await gateway.execute({ instanceId: INSTANCE, inputText: "x", attachments: [] });
    expect(result.output).toEqual({ text: "done" });
    expect(server.requests[0]?.body).toEqual({ instance_id: INSTANCE, input_text: "x" });
    expect(server.violations).toEqual([]);
  });

  it("reads the token afresh on every call", async () => {
    const auth = new BearerTokenAuth("old-token");
    server = await startContractServer({
      spec: "gateway.yaml",
      handlers: { execute: () => ({ status: 200, body: { run_id: "r" } }) },
      bearerToken: "new-token",
    });
    gateway = new GatewayClient({ baseUrl: server.url, auth });
    await expect(gateway.execute({ instanceId: INSTANCE, inputText: "x" })).rejects.toBeInstanceOf(
      NovaOSAuthenticationError,
    );
    auth.token = "new-token";
    await expect(gateway.execute({ instanceId: INSTANCE, inputText: "x" })).resolves.toMatchObject({ runId: "r" });
    expect(server.violations).toEqual([]);
  });

  it("counts input in code points and refuses bad arguments before any request", async () => {
    const { server, gateway } = await start({ execute: () => ({ status: 200, body: { run_id: "r" } }) });
    await expect(gateway.execute({ instanceId: INSTANCE, inputText: "😀".repeat(100_000) })).resolves.toBeDefined();
    const cases: [Parameters<GatewayClient["execute"]>[0], string][] = [
      [{ instanceId: "not-a-uuid", inputText: "x" }, "instanceId"],
      [{ instanceId: "", inputText: "x" }, "instanceId"],
      [{ instanceId: INSTANCE, inputText: "a".repeat(100_001) }, "inputText"],
      [{ instanceId: INSTANCE, inputText: undefined as unknown as string }, "inputText"],
      [{ instanceId: INSTANCE, inputText: "x", threadId: "t-1" }, "threadId"],
      [{ instanceId: INSTANCE, inputText: "x", attachments: [{ type: "x" }] }, "attachments.url"],
    ];
    for (const [options, field] of cases) {
      const error = await rejection(gateway.execute(options));
      expect(error).toBeInstanceOf(NovaOSValidationError);
      expect((error as NovaOSValidationError).field).toBe(field);
    }
    expect(server.requests).toHaveLength(1);
    expect(server.violations).toEqual([]);
  });

  it.each([
    [400, NovaOSValidationError, false],
    [403, NovaOSAuthenticationError, false],
    [404, NovaOSAgentNotFoundError, false],
    [500, NovaOSServerError, false],
    [502, NovaOSServerError, true],
    [503, NovaOSServerError, true],
    [504, NovaOSServerError, true],
  ])("maps HTTP %d to %o (retryable: %s) with the gateway's message", async (status, ErrorClass, retryable) => {
    const { server, gateway } = await start({
      execute: () => ({ status, body: { error: "code_x", message: `gateway says ${status}` } }),
    });
    const error = await rejection(gateway.execute({ instanceId: INSTANCE, inputText: "x" }));
    expect(error).toBeInstanceOf(ErrorClass);
    expect((error as NovaOSError).code).toBe(status);
    expect((error as NovaOSError).isRetryable).toBe(retryable);
    expect((error as Error).message).toContain(`gateway says ${status}`);
    expect(server.violations).toEqual([]);
  });

  it("maps a missing token to NovaOSAuthenticationError and 429 to NovaOSRateLimitError with Retry-After", async () => {
    const { server, gateway } = await start(
      { execute: () => ({ status: 429, body: { error: "slow_down" }, headers: { "Retry-After": "7" } }) },
      "wrong-token",
    );
    expect(await rejection(gateway.execute({ instanceId: INSTANCE, inputText: "x" }))).toBeInstanceOf(
      NovaOSAuthenticationError,
    );
    const limited = new GatewayClient({ baseUrl: server.url, auth: new BearerTokenAuth(TOKEN) });
    const error = await rejection(limited.execute({ instanceId: INSTANCE, inputText: "x" }));
    await limited.close();
    expect(error).toBeInstanceOf(NovaOSRateLimitError);
    expect((error as NovaOSRateLimitError).retryAfter).toBe(7);
    expect(server.violations).toEqual([]);
  });

  it("maps a refused connection and a deadline to NovaOSConnectionError", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port } = closed.address() as AddressInfo;
    closed.close();
    await once(closed, "close");
    gateway = new GatewayClient({ baseUrl: `http://127.0.0.1:${port}` });
    const refused = await rejection(gateway.execute({ instanceId: INSTANCE, inputText: "x" }));
    expect(refused).toBeInstanceOf(NovaOSConnectionError);
    expect((refused as NovaOSError).isRetryable).toBe(true);
    await gateway.close();

    let answer: (() => void) | undefined;
    const { gateway: slow } = await start({
      execute: () =>
        new Promise((resolve) => {
          answer = () => resolve({ status: 200, body: { run_id: "late" } });
        }),
    });
    const late = await rejection(slow.execute({ instanceId: INSTANCE, inputText: "x", timeoutMs: 50 }));
    answer?.();
    expect(late).toBeInstanceOf(NovaOSConnectionError);
    expect((late as Error).message).toContain("timed out after 50 ms");
  });

  it("ends a call with the caller's abort reason", async () => {
    const { gateway } = await start({ execute: () => new Promise(() => undefined) });
    const controller = new AbortController();
    const pending = gateway.execute({ instanceId: INSTANCE, inputText: "x", signal: controller.signal });
    const reason = new Error("user navigated away");
    controller.abort(reason);
    expect(await rejection(pending)).toBe(reason);
  });

  it("refuses calls once closed", async () => {
    const { gateway } = await start({ execute: () => ({ status: 200, body: { run_id: "r" } }) });
    await gateway.close();
    expect(gateway.closed).toBe(true);
    const error = await rejection(gateway.execute({ instanceId: INSTANCE, inputText: "x" }));
    expect(error).toBeInstanceOf(NovaOSError);
    expect((error as Error).message).toContain("closed");
  });
});

describe("GatewayClient.streamingHealth and getServiceRun (contract)", () => {
  it("is true when healthy, false on 503, and throws on an auth failure", async () => {
    let healthy = true;
    const { server, gateway } = await start({
      streamingHealth: () =>
        healthy
          ? { status: 200, body: { healthy: true } }
          : { status: 503, body: { healthy: false, detail: "redis down" } },
    });
    expect(await gateway.streamingHealth()).toBe(true);
    healthy = false;
    expect(await gateway.streamingHealth()).toBe(false);
    const anonymous = new GatewayClient({ baseUrl: server.url });
    expect(await rejection(anonymous.streamingHealth())).toBeInstanceOf(NovaOSAuthenticationError);
    await anonymous.close();
    expect(server.violations).toEqual([]);
  });

  it("reads a service run with its artifacts' skill metadata; an unknown run is NovaOSValidationError", async () => {
    const run = {
      id: "run-7",
      status: "COMPLETED",
      output: "ok",
      artifacts: [{ artifact_id: "a1", name: "result", text: "ok", data: { skillId: "chat", tokens: 12 } }],
      created_at: "2026-01-02T03:04:05Z",
    };
    const { server, gateway } = await start({
      getServiceRun: ({ params }) =>
        params.id === "run-7" ? { status: 200, body: run } : { status: 404, body: { error: "run_not_found" } },
    });
    expect(await gateway.getServiceRun("run-7")).toEqual(run);
    const missing = await rejection(gateway.getServiceRun("nope"));
    expect(missing).toBeInstanceOf(NovaOSValidationError);
    expect((missing as NovaOSValidationError).code).toBe(404);
    expect(server.violations).toEqual([]);
  });
});
