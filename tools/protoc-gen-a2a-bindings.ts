/**
 * protoc-gen-a2a-bindings: derives the A2A binding table from the service
 * definition, so that a spec bump re-derives every binding.
 *
 * For each RPC of a service it emits the JSON-RPC method name (spec §5.3: the
 * gRPC method name), the request and response schemas, unary or
 * server-streaming, and every HTTP+JSON route of its `google.api.http`
 * annotation (primary and additional bindings) with the path template parsed
 * into literal and variable segments. The routes go to `<file>_routes.ts`,
 * which names no descriptor; the bindings (`<file>_bindings.ts`) import them.
 */
import {
  type DescExtension,
  type DescField,
  type DescFile,
  type DescMessage,
  type DescService,
  getOption,
  toJson,
} from "@bufbuild/protobuf";
import { createEcmaScriptPlugin, type GeneratedFile, runNodeJs, type Schema } from "@bufbuild/protoplugin";

interface HttpRuleJson {
  get?: string;
  put?: string;
  post?: string;
  delete?: string;
  patch?: string;
  custom?: { kind: string; path: string };
  body?: string;
  responseBody?: string;
  additionalBindings?: HttpRuleJson[];
}

type Segment = { literal: string } | { variable: string; jsonPath: string[]; pattern: string };

interface Route {
  method: string;
  template: string;
  segments: Segment[];
  verb: string;
  body: string;
  responseBody: string;
  tenant: boolean;
}

function findHttpExtension(files: readonly DescFile[]): { ext: DescExtension; rule: DescMessage } {
  for (const file of files) {
    const ext = file.extensions.find((e) => e.typeName === "google.api.http");
    if (ext && ext.fieldKind === "message") return { ext, rule: ext.message };
  }
  throw new Error("google/api/annotations.proto (google.api.http) is not among the inputs");
}

/** Resolves a proto field path (`task_id`, `a.b`) to the JSON names along it. */
function jsonPathOf(input: DescMessage, path: string, method: string): string[] {
  const names: string[] = [];
  let message: DescMessage | undefined = input;
  for (const part of path.split(".")) {
    const field: DescField | undefined = message?.fields.find((f) => f.name === part);
    if (!field) throw new Error(`${method}: path variable "${path}" is not a field of ${input.typeName}`);
    names.push(field.jsonName);
    message = field.fieldKind === "message" ? field.message : undefined;
  }
  return names;
}

/** Parses a google.api.http path template: "/" Segments [ ":" Verb ]. */
function parseTemplate(template: string, input: DescMessage, method: string): { segments: Segment[]; verb: string } {
  if (!template.startsWith("/")) throw new Error(`${method}: template "${template}" must start with "/"`);
  const segments: Segment[] = [];
  let rest = template.slice(1);
  let verb = "";
  while (rest.length > 0) {
    if (rest.startsWith("{")) {
      const close = rest.indexOf("}");
      if (close < 0) throw new Error(`${method}: unclosed variable in "${template}"`);
      const [variable, pattern = "*"] = rest.slice(1, close).split("=") as [string, string?];
      if (pattern !== "*") throw new Error(`${method}: only single-segment variables are supported ("${template}")`);
      segments.push({ variable, jsonPath: jsonPathOf(input, variable, method), pattern });
      rest = rest.slice(close + 1);
    } else {
      const end = rest.search(/[/:]/);
      const literal = end < 0 ? rest : rest.slice(0, end);
      if (literal === "") throw new Error(`${method}: empty segment in "${template}"`);
      segments.push({ literal });
      rest = end < 0 ? "" : rest.slice(end);
    }
    if (rest.startsWith(":")) {
      verb = rest.slice(1);
      rest = "";
    } else if (rest.startsWith("/")) {
      rest = rest.slice(1);
    } else if (rest.length > 0) {
      throw new Error(`${method}: unexpected "${rest}" in "${template}"`);
    }
  }
  return { segments, verb };
}

function routesOf(rule: HttpRuleJson, input: DescMessage, method: string): Route[] {
  const verbs = ["get", "put", "post", "delete", "patch"] as const;
  const kind = verbs.find((v) => rule[v] !== undefined);
  const template = kind ? (rule[kind] as string) : rule.custom?.path;
  const httpMethod = kind ? kind.toUpperCase() : rule.custom?.kind;
  if (!template || !httpMethod) throw new Error(`${method}: google.api.http rule has no pattern`);
  const { segments, verb } = parseTemplate(template, input, method);
  const route: Route = {
    method: httpMethod,
    template,
    segments,
    verb,
    body: rule.body ?? "",
    responseBody: rule.responseBody ?? "",
    tenant: segments.some((s) => "variable" in s && s.variable === "tenant"),
  };
  return [route, ...(rule.additionalBindings ?? []).flatMap((b) => routesOf(b, input, method))];
}

/** "A2AService" → "a2aService": lower-cases the leading acronym. */
function lowerCamel(name: string): string {
  const head = /^[A-Z0-9]+(?=[A-Z][a-z])|^[A-Z0-9]+/.exec(name)?.[0] ?? "";
  return head.toLowerCase() + name.slice(head.length);
}

/**
 * The HTTP+JSON routes of each RPC, in a file of their own that imports
 * nothing: a client bundle reads them without the descriptors (a bundler
 * splits code by file, so a file shared with the bindings would bring them).
 */
function printRoutes(f: GeneratedFile, service: DescService, http: { ext: DescExtension; rule: DescMessage }): void {
  f.print(f.jsDoc(`The HTTP+JSON routes of each RPC of ${service.typeName}, in declaration order.`));
  f.print(f.export("const", routesTableName(service)), " = {");
  for (const method of service.methods) {
    if (method.methodKind !== "unary" && method.methodKind !== "server_streaming") {
      throw new Error(`${method.name}: ${method.methodKind} has no JSON-RPC or HTTP+JSON binding`);
    }
    const ruleValue = getOption(method, http.ext as DescExtension) as never;
    const rule = ruleValue ? (toJson(http.rule, ruleValue) as HttpRuleJson) : undefined;
    const routes = rule ? routesOf(rule, method.input, method.name) : [];
    f.print("  ", method.name, ": [");
    for (const route of routes) {
      f.print("    ", JSON.stringify(route), ",");
    }
    f.print("  ],");
  }
  f.print("} as const;");
  f.print();
}

function routesTableName(service: DescService): string {
  return `${lowerCamel(service.name)}HttpRoutes`;
}

function printService(f: GeneratedFile, service: DescService, routesFile: string): void {
  const serviceSymbol = f.importSchema(service);
  const routes = f.import(routesTableName(service), routesFile);
  f.print(f.jsDoc(`The A2A bindings of ${service.typeName}, one entry per RPC, in declaration order.`));
  f.print(f.export("const", `${lowerCamel(service.name)}Bindings`), " = {");
  for (const method of service.methods) {
    f.print("  ", method.name, ": {");
    f.print("    name: ", f.string(method.name), ",");
    f.print("    jsonRpcMethod: ", f.string(method.name), ",");
    f.print("    kind: ", f.string(method.methodKind), ",");
    f.print("    rpc: ", serviceSymbol, ".method.", method.localName, ",");
    f.print("    input: ", f.importSchema(method.input), ",");
    f.print("    output: ", f.importSchema(method.output), ",");
    f.print("    http: ", routes, ".", method.name, ",");
    f.print("  },");
  }
  f.print("} as const;");
  f.print();
}

function generateTs(schema: Schema): void {
  const http = findHttpExtension(schema.allFiles);
  for (const file of schema.files) {
    if (file.services.length === 0) continue;
    const routes = schema.generateFile(`${file.name}_routes.ts`);
    routes.preamble(file);
    for (const service of file.services) printRoutes(routes, service, http);
    const f = schema.generateFile(`${file.name}_bindings.ts`);
    f.preamble(file);
    const routesFile = `./${file.name.split("/").pop()}_routes.js`;
    for (const service of file.services) printService(f, service, routesFile);
  }
}

runNodeJs(
  createEcmaScriptPlugin({
    name: "protoc-gen-a2a-bindings",
    version: "v1",
    generateTs,
  }),
);
