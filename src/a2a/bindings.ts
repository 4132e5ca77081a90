/**
 * The generated binding table, with the lookups the bindings need. Nothing
 * here restates a method name or a route: they all come from
 * `gen/a2a_bindings.ts`, derived from the pinned a2a.proto.
 */
import { a2aServiceBindings } from "../../gen/a2a_bindings.js";

export { a2aServiceBindings };

export type A2AMethodName = keyof typeof a2aServiceBindings;
export type A2ABinding = (typeof a2aServiceBindings)[A2AMethodName];
export type A2ABindingOf<M extends A2AMethodName> = (typeof a2aServiceBindings)[M];

/** One segment of an HTTP path template: a literal, or a variable bound to a request field. */
export type A2ARouteSegment =
  | { readonly literal: string }
  | { readonly variable: string; readonly jsonPath: readonly string[]; readonly pattern: string };

/** One HTTP+JSON route of an RPC, from its `google.api.http` annotation. */
export interface A2AHttpRoute {
  readonly method: string;
  /** The template as annotated, e.g. `/{tenant}/tasks/{id=*}:cancel`. */
  readonly template: string;
  readonly segments: readonly A2ARouteSegment[];
  /** The custom verb after the last segment (`cancel` in `…:cancel`), or "". */
  readonly verb: string;
  /** `*` (the whole request is the body), a field name, or "" (no body: fields come from the query). */
  readonly body: string;
  readonly responseBody: string;
  /** Whether the route carries the `{tenant}` path variable. */
  readonly tenant: boolean;
}

/** Every binding, in service declaration order. */
export const a2aBindingList: readonly A2ABinding[] = Object.values(a2aServiceBindings);

const byJsonRpcMethod = new Map<string, A2ABinding>(a2aBindingList.map((b) => [b.jsonRpcMethod, b]));

/** The binding of a JSON-RPC method name (exact, case-sensitive), or undefined. */
export function bindingForJsonRpcMethod(method: string): A2ABinding | undefined {
  return byJsonRpcMethod.get(method);
}

/** The HTTP+JSON routes of a binding, typed. */
export function httpRoutesOf(binding: A2ABinding): readonly A2AHttpRoute[] {
  return binding.http;
}
