import { describe, expect, it } from "vitest";
import { grpcDialUrl, isGrpcOnlyUrl } from "../../src/a2a/grpc-url.js";

describe("gRPC interface URLs", () => {
  it.each([
    ["agent.internal:50051", "http://agent.internal:50051", true],
    ["[::1]:50051", "http://[::1]:50051", true],
    ["grpc://agent:50051", "http://agent:50051", true],
    ["GRPCS://agent:443", "https://agent:443", true],
    ["https://agent.example/a2a", "https://agent.example/a2a", false],
    ["http://127.0.0.1:8000", "http://127.0.0.1:8000", false],
  ])("%s is dialled as %s", (url, dial, grpcOnly) => {
    expect(grpcDialUrl(url)).toBe(dial);
    expect(isGrpcOnlyUrl(url)).toBe(grpcOnly);
  });
});
