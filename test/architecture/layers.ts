/**
 * The layers of `src/` as data: which area may import which. This is the
 * picture of docs/architecture.md ("Layers"); change both together. An area
 * is a folder directly under `src/` (`gen` is the generated code beside it,
 * `index` the universal package entry `src/index.ts`). A package entry is
 * `src/index.ts` or a folder's `index.ts` (see ENTRY_FOLDERS).
 */
import * as path from "node:path";
import ts from "typescript";

export type Area =
  | "gen"
  | "a2a"
  | "errors"
  | "runtime"
  | "security"
  | "capabilities"
  | "messages"
  | "http"
  | "memory"
  | "server"
  | "client"
  | "platform"
  | "tools"
  | "discovery"
  | "grpc"
  | "node"
  | "protocol"
  | "index"
  | "cli"
  | "fleet"
  | "local-platform";

const BASE: readonly Area[] = ["gen", "a2a", "errors", "runtime"];
const SHARED: readonly Area[] = [...BASE, "security", "capabilities", "messages", "http"];

/** What each area may import besides itself. */
export const MAY_IMPORT: Readonly<Record<Area, readonly Area[]>> = {
  gen: [],
  a2a: ["gen"],
  errors: ["gen", "a2a"],
  runtime: ["gen", "a2a", "errors"],
  security: BASE,
  capabilities: BASE,
  messages: BASE,
  http: BASE,
  // The Memory Service client sits below the agent side: every skill's `ctx.memory` makes its clients.
  memory: [...BASE, "http"],
  // The platform tools (`ctx.tools`): below the agent side, which builds them for each run, and the platform clients;
  // `ctx.tools.memory` speaks the Memory Service's types and limits.
  tools: [...SHARED, "memory"],
  server: [...SHARED, "memory", "tools"],
  client: SHARED,
  platform: [...SHARED, "memory", "tools"],
  // The gRPC binding on Node: a client transport and a server binding, over the seams of both halves.
  grpc: [...SHARED, "server", "client"],
  // Discovery builds A2A clients for what it finds: it uses the client's public API, never its internals,
  // and offers them the gRPC transport through its deferred factory (connect-node loads on a first gRPC call).
  discovery: [...SHARED, "client", "grpc"],
  // Serving and calling on Node: listen() serves every binding; the guarded fetch comes from discovery.
  node: [...SHARED, "server", "client", "grpc", "discovery"],
  // The protocol entry lists the protocol layer.
  protocol: ["gen", "a2a"],
  // The universal entry: nothing that needs Node (test/architecture/universal-entries.test.ts checks the packages).
  index: ["gen", "a2a", "errors", "runtime", "messages", "http", "client"],
  // The command-line tool is built on the package entries only.
  cli: ["index", "server", "node", "grpc", "discovery", "platform", "security", "protocol", "fleet"],
  // The PostgreSQL stores implement the server's store seam.
  fleet: [...SHARED, "server"],
  // The local platform (its own entry and bin) runs agents with the client and serves what the platform
  // clients and the tools call; nothing imports it.
  "local-platform": [...SHARED, "memory", "server", "client", "discovery", "platform", "tools", "grpc", "node"],
};

/**
 * The one file of `security/` that runtime/ may import: the logger masks PII
 * in every line, and pii.ts imports nothing (decision S32).
 */
const PII_MASKING = "src/security/pii.ts";

/** The one file of `client/` that discovery may import. */
const CLIENT_PUBLIC_API = "src/client/index.ts";

/** The one file of `grpc/` that discovery may import: the factory that defers connect-node. */
const GRPC_DEFERRED_TRANSPORT = "src/grpc/grpc-transport-factory.ts";

/**
 * The package's subpath entries: `@novaos/client-sdk/<name>` is
 * `src/<name>/index.ts`, and that file IS the entry's list of public names
 * (the root entry is `src/index.ts`). package.json `exports`, the build and
 * docs/api.md follow this list; a name added to a folder's index.ts lands in
 * its entry with no other change.
 */
export const ENTRY_FOLDERS = [
  "server",
  "node",
  "grpc",
  "discovery",
  "platform",
  "security",
  "protocol",
  "fleet",
  "local-platform",
] as const satisfies readonly Area[];

/** Whether `file` (repository-relative) is a package entry. */
export function isEntry(file: string): boolean {
  return file === "src/index.ts" || ENTRY_FOLDERS.some((name) => file === `src/${name}/index.ts`);
}

/** One import: the importing file and the imported one, repository-relative, `.ts` spelled out. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

/** The area of a repository-relative path, or undefined outside `src/` and `gen/`. */
export function areaOf(file: string): Area | undefined {
  const [top, area, rest] = file.split("/");
  if (top === "gen") return "gen";
  if (top !== "src" || area === undefined) return undefined;
  if (rest === undefined) return area === "index.ts" ? "index" : undefined;
  return area in MAY_IMPORT ? (area as Area) : undefined;
}

/** Why `edge` crosses a forbidden boundary, or undefined when the layers allow it. */
export function forbiddenEdge(edge: ImportEdge): string | undefined {
  const from = areaOf(edge.from);
  const to = areaOf(edge.to);
  if (from === undefined) return `${edge.from} is in no area of src/`;
  if (to === undefined) return `${edge.from} imports ${edge.to}, which is outside src/ and gen/`;
  if (from === to) return undefined;
  if (from === "runtime" && edge.to === PII_MASKING) return undefined;
  if (!MAY_IMPORT[from].includes(to)) return `${from}/ may not import ${to}/ (${edge.from} → ${edge.to})`;
  if (from === "discovery" && to === "client" && edge.to !== CLIENT_PUBLIC_API) {
    return `discovery/ uses client/ through ${CLIENT_PUBLIC_API} only (${edge.from} → ${edge.to})`;
  }
  if (from === "discovery" && to === "grpc" && edge.to !== GRPC_DEFERRED_TRANSPORT) {
    return `discovery/ uses grpc/ through ${GRPC_DEFERRED_TRANSPORT} only (${edge.from} → ${edge.to})`;
  }
  if (from === "cli" && !isEntry(edge.to)) return `cli/ imports package entries only (${edge.from} → ${edge.to})`;
  return undefined;
}

/** The relative imports of one file (static, type-only, re-exports and dynamic), resolved against it. */
export function importsOf(file: string, text: string): ImportEdge[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((ref) => ref.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => ({
      from: file,
      to: path.posix.join(path.posix.dirname(file), specifier).replace(/\.js$/, ".ts"),
    }));
}
