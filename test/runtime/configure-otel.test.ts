import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { context, type ProxyTracerProvider, propagation, trace } from "@opentelemetry/api";
import { afterAll, describe, expect, it } from "vitest";
import { configureOtel } from "../../src/runtime/configure-otel.js";
import { getTraceparent, injectTraceHeaders } from "../../src/runtime/traceparent.js";

// A local OTLP/HTTP collector: configureOtel must deliver spans to it, with the headers and service name given.
const received: { request: IncomingMessage; body: string }[] = [];
const collector = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    received.push({ request, body: Buffer.concat(chunks).toString("utf8") });
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
    collector.emit("export");
  });
});
collector.listen(0, "127.0.0.1");
/** Exports what the batch processor holds now. */
const flush = () =>
  ((trace.getTracerProvider() as ProxyTracerProvider).getDelegate() as { forceFlush?(): Promise<void> }).forceFlush?.();

afterAll(async () => {
  await flush();
  trace.disable();
  propagation.disable();
  context.disable();
  collector.closeAllConnections();
  collector.close();
});

describe("configureOtel", () => {
  it("exports spans over OTLP/HTTP and installs context propagation across awaits", async () => {
    if (!collector.listening) await once(collector, "listening");
    const { port } = collector.address() as AddressInfo;
    const configured = await configureOtel({
      endpoint: `http://127.0.0.1:${port}/`,
      serviceName: "echo-agent",
      headers: { "x-collector-key": "k1" },
      env: {},
    });
    expect(configured).toBe(true);

    let inside = { traceparent: "", injected: {} as Record<string, string> };
    await trace.getTracer("test").startActiveSpan("skill greet", async (span) => {
      await new Promise(setImmediate); // the span must stay active across a turn of the event loop
      inside = { traceparent: getTraceparent({}), injected: injectTraceHeaders({}, {}) };
      span.end();
    });
    const exported = once(collector, "export");
    await flush();
    await exported;

    const [{ request, body }] = received as [{ request: IncomingMessage; body: string }];
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/v1/traces");
    expect(request.headers["x-collector-key"]).toBe("k1");
    expect(body).toContain("echo-agent");
    expect(body).toContain("skill greet");
    expect(inside.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(inside.injected).toEqual({ traceparent: inside.traceparent });
  });

  it("resolves false and changes nothing when a tracer provider is already registered", async () => {
    const before = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate();
    expect(await configureOtel({ serviceName: "second" })).toBe(false);
    expect((trace.getTracerProvider() as ProxyTracerProvider).getDelegate()).toBe(before);
  });
});
