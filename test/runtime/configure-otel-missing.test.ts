import { trace } from "@opentelemetry/api";
import { describe, expect, it, vi } from "vitest";
import { configureOtel } from "../../src/runtime/configure-otel.js";

// The OpenTelemetry SDK is an optional peer: an application without it gets false, not an error.
vi.mock("@opentelemetry/sdk-trace", () => {
  throw new Error("Cannot find package '@opentelemetry/sdk-trace'");
});

describe("configureOtel without the OpenTelemetry SDK", () => {
  it("resolves false and registers nothing", async () => {
    const before = trace.getTracerProvider();
    expect(await configureOtel({ serviceName: "no-sdk" })).toBe(false);
    expect(trace.getTracerProvider()).toBe(before);
  });
});
