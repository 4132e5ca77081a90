/**
 * The HTTP+JSON routes (spec §11.3), compiled from the generated binding
 * table: every `google.api.http` route of every RPC, `/{tenant}` variants
 * included. Nothing here names a path; a spec bump re-derives the routes.
 */
import {
  type A2ABinding,
  type A2AHttpRoute,
  a2aBindingList,
  a2aServiceBindings,
  httpRoutesOf,
} from "../../a2a/bindings.js";

/** A request path matched to an RPC, with the raw (still percent-encoded) path variables. */
export interface RouteMatch {
  readonly binding: A2ABinding;
  readonly route: A2AHttpRoute;
  /** Path variables by the request field's JSON path (`["taskId"]`), raw. */
  readonly variables: readonly (readonly [jsonPath: readonly string[], raw: string])[];
}

/** The path matched routes, but none for this HTTP method. */
export interface MethodMismatch {
  readonly allow: readonly string[];
}

/** Routes with the same path shape (`/tasks/*:cancel`), by HTTP method. */
interface PathShape {
  readonly route: A2AHttpRoute;
  /** Each RPC's route as the match of a path without variables: made once, and answered as is for such a path. */
  readonly byMethod: ReadonlyMap<string, RouteMatch>;
  /** The answer for a method none of them takes. */
  readonly mismatch: MethodMismatch;
}

/**
 * The proto binds `SubscribeToTask` to GET, the §5.3 text to POST, and both
 * peers' clients send POST: the route answers both (docs/decisions.md P18).
 */
function methodsOf(binding: A2ABinding, route: A2AHttpRoute): readonly string[] {
  if (binding === a2aServiceBindings.SubscribeToTask) return [...new Set([route.method, "GET", "POST"])];
  return [route.method];
}

const literalCount = (route: A2AHttpRoute) => route.segments.filter((s) => "literal" in s).length;

/**
 * Most specific shape first, so every path has one meaning: a custom verb
 * beats a bare variable (`/tasks/x:subscribe` is not GetTask of `x:subscribe`,
 * as a2a-js once read it), more literals beat fewer, and a plain route beats a
 * `/{tenant}` one (`/tasks/x` is GetTask of `x`, not ListTasks of tenant `tasks`).
 */
function bySpecificity(a: A2AHttpRoute, b: A2AHttpRoute): number {
  return (
    Number(b.verb !== "") - Number(a.verb !== "") ||
    literalCount(b) - literalCount(a) ||
    Number(a.tenant) - Number(b.tenant)
  );
}

const NO_VARIABLES: RouteMatch["variables"] = Object.freeze([]);

const shapes: readonly PathShape[] = (() => {
  const byKey = new Map<string, { route: A2AHttpRoute; byMethod: Map<string, RouteMatch> }>();
  for (const binding of a2aBindingList) {
    for (const route of httpRoutesOf(binding)) {
      const key = `${route.segments.map((s) => ("literal" in s ? s.literal : "*")).join("/")}:${route.verb}`;
      const shape = byKey.get(key) ?? { route, byMethod: new Map<string, RouteMatch>() };
      byKey.set(key, shape);
      for (const method of methodsOf(binding, route))
        shape.byMethod.set(method, { binding, route, variables: NO_VARIABLES });
    }
  }
  return [...byKey.values()]
    .map((shape) => ({ ...shape, mismatch: { allow: [...shape.byMethod.keys()].sort() } }))
    .sort((a, b) => bySpecificity(a.route, b.route));
})();

/** Splits `/a/b:verb` into raw segments; undefined for a path that is not absolute. */
function splitPath(path: string): string[] | undefined {
  if (!path.startsWith("/")) return undefined;
  return path.slice(1).split("/");
}

const COLON = 0x3a;

/** The path variables when `segments` fit the route; allocates only for a route that has variables. */
function matchSegments(route: A2AHttpRoute, segments: readonly string[]): RouteMatch["variables"] | undefined {
  if (segments.length !== route.segments.length) return undefined;
  const last = segments.length - 1;
  let variables: [readonly string[], string][] | undefined;
  for (let i = 0; i < segments.length; i++) {
    let segment = segments[i] as string;
    if (i === last && route.verb !== "") {
      const at = segment.length - route.verb.length - 1;
      if (at < 0 || segment.charCodeAt(at) !== COLON || !segment.endsWith(route.verb)) return undefined;
      segment = segment.slice(0, at);
    }
    const template = route.segments[i]!;
    if ("literal" in template) {
      if (segment !== template.literal) return undefined;
    } else {
      // `*` binds exactly one non-empty segment.
      if (segment === "") return undefined;
      variables ??= [];
      variables.push([template.jsonPath, segment]);
    }
  }
  return variables ?? NO_VARIABLES;
}

/** The first shape, most specific first, that `segments` fit. */
function shapeOf(segments: readonly string[]): PathShape | undefined {
  for (const shape of shapes) if (matchSegments(shape.route, segments)) return shape;
  return undefined;
}

/**
 * The shapes without variables by the one path each fits (`/message:send`),
 * each the shape the scan picks for that path: the most frequent requests
 * (SendMessage) find their route by one lookup, not by splitting the path and
 * trying every shape before theirs.
 */
const literalShapes: ReadonlyMap<string, PathShape> = (() => {
  const byPath = new Map<string, PathShape>();
  for (const shape of shapes) {
    // A template without variables is the one path it fits.
    const { segments, template } = shape.route;
    if (segments.every((s) => "literal" in s) && shapeOf(splitPath(template) as string[]) === shape) {
      byPath.set(template, shape);
    }
  }
  return byPath;
})();

/**
 * The route a request takes: a match, a method mismatch (answered 405 with
 * `Allow`), or undefined when no route has this path (another binding may own it).
 */
export function matchRoute(method: string, path: string): RouteMatch | MethodMismatch | undefined {
  const literal = literalShapes.get(path);
  if (literal) return literal.byMethod.get(method) ?? literal.mismatch;
  const segments = splitPath(path);
  if (!segments) return undefined;
  const shape = shapeOf(segments);
  if (!shape) return undefined;
  const endpoint = shape.byMethod.get(method);
  if (!endpoint) return shape.mismatch;
  // Same shape, so it matches too; only the variable names differ between the shape's routes.
  const variables = matchSegments(endpoint.route, segments) as RouteMatch["variables"];
  return variables === NO_VARIABLES ? endpoint : { ...endpoint, variables };
}

export function isMethodMismatch(match: RouteMatch | MethodMismatch): match is MethodMismatch {
  return "allow" in match;
}
