/**
 * No import under `src/` crosses a boundary of the layers drawn in
 * docs/architecture.md: `a2a/` imports nothing but `gen/`; `server/` and
 * `client/` never import each other; `runtime/` nothing above it; `http/`
 * none of its callers; discovery uses `client/` only through its index.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { forbiddenEdge, type ImportEdge, importsOf } from "./layers.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

function sourceFiles(): string[] {
  return readdirSync(path.join(ROOT, "src"), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => path.posix.join("src", name.split(path.sep).join("/")));
}

describe("import boundaries", () => {
  it("every import under src/ stays within the layers", () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const edges = files.flatMap((file) => importsOf(file, readFileSync(path.join(ROOT, file), "utf8")));
    expect(edges.length).toBeGreaterThan(500);
    expect(edges.flatMap((edge) => forbiddenEdge(edge) ?? [])).toEqual([]);
  });

  it("reads static, type-only, re-exported and dynamic imports, resolved against the importing file", () => {
    const source = [
      'import type { A } from "../server/server-call.js";',
      'export * from "../../gen/a2a_pb.js";',
      'import { c } from "node:fs";',
      'const d = await import("./errors.js");',
    ].join("\n");
    expect(importsOf("src/a2a/jsonrpc.ts", source)).toEqual([
      { from: "src/a2a/jsonrpc.ts", to: "src/server/server-call.ts" },
      { from: "src/a2a/jsonrpc.ts", to: "gen/a2a_pb.ts" },
      { from: "src/a2a/jsonrpc.ts", to: "src/a2a/errors.ts" },
    ]);
  });

  const forbidden: [string, ImportEdge][] = [
    ["a2a/ → server/", { from: "src/a2a/jsonrpc.ts", to: "src/server/server-call.ts" }],
    ["a2a/ → errors/", { from: "src/a2a/errors.ts", to: "src/errors/novaos-errors.ts" }],
    ["server/ → client/", { from: "src/server/agent-builder.ts", to: "src/client/client.ts" }],
    ["client/ → server/", { from: "src/client/client.ts", to: "src/server/index.ts" }],
    ["runtime/ → http/", { from: "src/runtime/config.ts", to: "src/http/auth.ts" }],
    ["runtime/ → server/", { from: "src/runtime/logger.ts", to: "src/server/server-call.ts" }],
    ["http/ → client/", { from: "src/http/auth.ts", to: "src/client/client.ts" }],
    ["http/ → server/", { from: "src/http/capped-body.ts", to: "src/server/http-exchange.ts" }],
    ["http/ → discovery/", { from: "src/http/platform-client.ts", to: "src/discovery/guarded-client.ts" }],
    ["http/ → platform/", { from: "src/http/platform-http-error.ts", to: "src/platform/gateway-client.ts" }],
    ["platform/ → client/", { from: "src/platform/gateway-client.ts", to: "src/client/index.ts" }],
    ["server/ → platform/", { from: "src/server/agent-builder.ts", to: "src/platform/index.ts" }],
    ["platform/ → server/", { from: "src/platform/gateway-client.ts", to: "src/server/index.ts" }],
    ["tools/ → server/", { from: "src/tools/tool-caller.ts", to: "src/server/agent-execution-context.ts" }],
    ["tools/ → platform/", { from: "src/tools/tool-caller.ts", to: "src/platform/gateway-client.ts" }],
    ["discovery/ → platform/", { from: "src/discovery/agent-dns-client.ts", to: "src/platform/index.ts" }],
    ["discovery/ → a client internal", { from: "src/discovery/guarded-client.ts", to: "src/client/client.ts" }],
    ["anything → the package entry", { from: "src/server/index.ts", to: "src/index.ts" }],
    ["the universal entry → server/", { from: "src/index.ts", to: "src/server/index.ts" }],
    ["the universal entry → security/", { from: "src/index.ts", to: "src/security/index.ts" }],
    ["client/ → grpc/", { from: "src/client/client.ts", to: "src/grpc/grpc-transport-factory.ts" }],
    ["server/ → node/", { from: "src/server/agent-builder.ts", to: "src/node/serve-agent.ts" }],
    ["discovery/ → connect-node's transport", { from: "src/discovery/guarded-client.ts", to: "src/grpc/index.ts" }],
    ["cli/ → an internal", { from: "src/cli/program.ts", to: "src/client/client.ts" }],
    ["src/ → outside src/ and gen/", { from: "src/a2a/version.ts", to: "tools/generate.ts" }],
  ];
  it.each(forbidden)("refuses %s", (_name, edge) => {
    expect(forbiddenEdge(edge)).toEqual(expect.any(String));
  });

  const allowed: [string, ImportEdge][] = [
    ["a2a/ → gen/", { from: "src/a2a/bindings.ts", to: "gen/a2a_bindings.ts" }],
    ["server/ → http/", { from: "src/server/fetch-adapter.ts", to: "src/http/capped-body.ts" }],
    ["server/ → tools/", { from: "src/server/platform-tools.ts", to: "src/tools/tool-bindings.ts" }],
    ["platform/ → tools/", { from: "src/platform/index.ts", to: "src/tools/index.ts" }],
    ["tools/ → http/", { from: "src/tools/mcp-tool-gateway.ts", to: "src/http/capped-body.ts" }],
    ["discovery/ → the client's public API", { from: "src/discovery/guarded-client.ts", to: "src/client/index.ts" }],
    [
      "discovery/ → the deferred gRPC transport",
      { from: "src/discovery/guarded-client.ts", to: "src/grpc/grpc-transport-factory.ts" },
    ],
    ["the universal entry → client/", { from: "src/index.ts", to: "src/client/index.ts" }],
    ["node/ → server/", { from: "src/node/serve-agent.ts", to: "src/server/agent-builder.ts" }],
    ["cli/ → a package entry", { from: "src/cli/program.ts", to: "src/node/index.ts" }],
  ];
  it.each(allowed)("allows %s", (_name, edge) => {
    expect(forbiddenEdge(edge)).toBeUndefined();
  });
});
