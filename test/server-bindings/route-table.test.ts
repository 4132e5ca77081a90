import { describe, expect, it } from "vitest";
import { a2aBindingList, a2aServiceBindings, httpRoutesOf } from "../../src/a2a/bindings.js";
import { isMethodMismatch, matchRoute, type RouteMatch } from "../../src/server/http-json/route-table.js";

/** A concrete path for a route template, with `values` for its variables. */
function pathFor(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)(?:=\*)?\}/g, (_, name: string) => encodeURIComponent(values[name] ?? `${name}-1`));
}

function matched(method: string, path: string): RouteMatch {
  const match = matchRoute(method, path);
  if (!match || isMethodMismatch(match)) throw new Error(`${method} ${path} did not match`);
  return match;
}

describe("HTTP+JSON route table", () => {
  it("matches every route of the generated table, tenant variants included, to its RPC", () => {
    for (const binding of a2aBindingList) {
      for (const route of httpRoutesOf(binding)) {
        const match = matched(route.method, pathFor(route.template, { tenant: "acme" }));
        expect(match.binding.name).toBe(binding.name);
        expect(match.route).toBe(route);
        const vars = Object.fromEntries(match.variables.map(([path, raw]) => [path.join("."), raw]));
        if (route.tenant) expect(vars.tenant).toBe("acme");
        else expect(vars).not.toHaveProperty("tenant");
      }
    }
  });

  it("only meets what the binding maps: bodies `*` or none, variables bound to top-level fields", () => {
    // A spec bump that adds another body mapping or a nested path variable fails here first.
    const routes = a2aBindingList.flatMap((b) => httpRoutesOf(b));
    expect([...new Set(routes.map((r) => r.body))].sort()).toEqual(["", "*"]);
    for (const route of routes) {
      for (const segment of route.segments) if ("variable" in segment) expect(segment.jsonPath).toHaveLength(1);
    }
  });

  it("takes GET and POST for :subscribe (proto vs §5.3 text)", () => {
    for (const method of ["GET", "POST"]) {
      expect(matched(method, "/tasks/t-1:subscribe").binding).toBe(a2aServiceBindings.SubscribeToTask);
      expect(matched(method, "/acme/tasks/t-1:subscribe").binding).toBe(a2aServiceBindings.SubscribeToTask);
    }
  });

  it("keeps variables raw (percent-encoded) and keeps a colon inside an id that has no verb", () => {
    expect(matched("GET", "/tasks/a%2Fb").variables).toEqual([[["id"], "a%2Fb"]]);
    expect(matched("GET", "/tasks/urn:task:1").variables).toEqual([[["id"], "urn:task:1"]]);
    expect(matched("POST", "/tasks/urn:task:1:cancel").variables).toEqual([[["id"], "urn:task:1"]]);
  });

  it("prefers a plain route over a tenant route for the same path", () => {
    // `/tasks/tasks` is GetTask of task "tasks", not ListTasks of tenant "tasks".
    expect(matched("GET", "/tasks/tasks").binding).toBe(a2aServiceBindings.GetTask);
    expect(matched("GET", "/acme/tasks").binding).toBe(a2aServiceBindings.ListTasks);
    // More literals win: the push configs of task "tasks", not GetTask of "pushNotificationConfigs" for tenant "tasks".
    expect(matched("GET", "/tasks/tasks/pushNotificationConfigs").binding).toBe(
      a2aServiceBindings.ListTaskPushNotificationConfigs,
    );
  });

  it("prefers a custom verb over a variable that would swallow it (a2a-js once read x:subscribe as a task id)", () => {
    expect(matched("GET", "/tasks/t-1:subscribe").binding).toBe(a2aServiceBindings.SubscribeToTask);
    expect(matched("POST", "/tasks/message:send").binding).toBe(a2aServiceBindings.SendMessage);
  });

  it("answers a path without variables from a table made once: the same match, and the same refusal, every time", () => {
    const send = matched("POST", "/message:send");
    expect(send.binding).toBe(a2aServiceBindings.SendMessage);
    expect(send.variables).toEqual([]);
    expect(matchRoute("POST", "/message:send")).toBe(send);
    expect(matchRoute("GET", "/message:send")).toBe(matchRoute("GET", "/message:send"));
    // A path with variables gets its own match.
    expect(matchRoute("GET", "/tasks/t-1")).not.toBe(matchRoute("GET", "/tasks/t-1"));
  });

  it("reports the allowed methods when only the method is wrong", () => {
    expect(matchRoute("DELETE", "/tasks/t-1")).toEqual({ allow: ["GET"] });
    expect(matchRoute("GET", "/message:send")).toEqual({ allow: ["POST"] });
    expect(matchRoute("PUT", "/tasks/t-1/pushNotificationConfigs/c-1")).toEqual({ allow: ["DELETE", "GET"] });
    expect(matchRoute("DELETE", "/tasks/t-1:subscribe")).toEqual({ allow: ["GET", "POST"] });
  });

  it("leaves paths it does not serve to others", () => {
    for (const path of ["/", "/.well-known/agent-card.json", "/tasks/", "/tasks//x", "/a/b/c", "tasks", "/message"]) {
      expect(matchRoute("GET", path), path).toBeUndefined();
    }
    expect(matchRoute("POST", "/message:sendx")).toBeUndefined();
    expect(matchRoute("GET", "/tasks/t-1:cancel")).toEqual({ allow: ["POST"] });
  });
});
