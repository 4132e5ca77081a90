/**
 * The layers of `src/` as data: which area may import which. This is the
 * picture of docs/architecture.md ("Layers"); change both together. An area
 * is a folder directly under `src/` (`gen` is the generated code beside it,
 * `index` the package entry `src/index.ts`).
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
  | "server"
  | "client"
  | "platform"
  | "tools"
  | "discovery"
  | "index"
  | "cli"
  | "fleet";

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
  // The platform tools (`ctx.tools`): below the agent side, which builds them for each run, and the platform clients.
  tools: SHARED,
  server: [...SHARED, "tools"],
  client: SHARED,
  platform: [...SHARED, "tools"],
  // Discovery builds A2A clients for what it finds: it uses the client's public API, never its internals.
  discovery: [...SHARED, "client"],
  index: [...SHARED, "tools", "server", "client", "platform", "discovery"],
  // The command-line tool is built on the public API only.
  cli: ["index"],
  // The PostgreSQL stores implement the server's store seam.
  fleet: [...SHARED, "server"],
};

/**
 * The one file of `security/` that runtime/ may import: the logger masks PII
 * in every line, and pii.ts imports nothing (decision S32).
 */
const PII_MASKING = "src/security/pii.ts";

/** The one file of `client/` that discovery may import. */
const CLIENT_PUBLIC_API = "src/client/index.ts";

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
