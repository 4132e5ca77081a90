import { describe, expect, it } from "vitest";
import { A2AService } from "../../gen/a2a_pb.js";
import { a2aBindingList, a2aServiceBindings, bindingForJsonRpcMethod, httpRoutesOf } from "../../src/a2a/bindings.js";

// Spec v1.0.1 §5.3, "Method Mapping Reference" (REST variables renamed to the proto field names).
const SPEC_5_3 = [
  ["SendMessage", "POST /message:send"],
  ["SendStreamingMessage", "POST /message:stream"],
  ["GetTask", "GET /tasks/{id=*}"],
  ["ListTasks", "GET /tasks"],
  ["CancelTask", "POST /tasks/{id=*}:cancel"],
  // §5.3 says POST; the proto annotation says GET. The table follows the proto; servers accept both.
  ["SubscribeToTask", "GET /tasks/{id=*}:subscribe"],
  ["CreateTaskPushNotificationConfig", "POST /tasks/{task_id=*}/pushNotificationConfigs"],
  ["GetTaskPushNotificationConfig", "GET /tasks/{task_id=*}/pushNotificationConfigs/{id=*}"],
  ["ListTaskPushNotificationConfigs", "GET /tasks/{task_id=*}/pushNotificationConfigs"],
  ["DeleteTaskPushNotificationConfig", "DELETE /tasks/{task_id=*}/pushNotificationConfigs/{id=*}"],
  ["GetExtendedAgentCard", "GET /extendedAgentCard"],
] as const;

describe("generated bindings table", () => {
  it("has one entry per RPC of the service descriptor, in order, with its schemas and kind", () => {
    expect(a2aBindingList.map((b) => b.name)).toEqual(A2AService.methods.map((m) => m.name));
    for (const method of A2AService.methods) {
      const binding = a2aServiceBindings[method.name as keyof typeof a2aServiceBindings];
      expect(binding.rpc).toBe(method);
      expect(binding.input).toBe(method.input);
      expect(binding.output).toBe(method.output);
      expect(binding.kind).toBe(method.methodKind);
    }
  });

  it("matches spec §5.3: eleven methods, JSON-RPC name = gRPC name, and the REST route", () => {
    expect(a2aBindingList).toHaveLength(11);
    const table = a2aBindingList.map((b): [string, string] => {
      const primary = httpRoutesOf(b)[0];
      return [b.jsonRpcMethod, `${primary?.method} ${primary?.template}`];
    });
    // The proto declares GetExtendedAgentCard before DeleteTaskPushNotificationConfig; compare as maps.
    expect(new Map(table)).toEqual(new Map(SPEC_5_3));
    for (const b of a2aBindingList) expect(b.jsonRpcMethod).toBe(b.rpc.name);
  });

  it("marks exactly SendStreamingMessage and SubscribeToTask as server-streaming", () => {
    expect(a2aBindingList.filter((b) => b.kind === "server_streaming").map((b) => b.name)).toEqual([
      "SendStreamingMessage",
      "SubscribeToTask",
    ]);
  });

  it("gives every route a /{tenant} variant with the same shape", () => {
    for (const binding of a2aBindingList) {
      const routes = httpRoutesOf(binding);
      expect(routes).toHaveLength(2);
      const [plain, tenant] = routes;
      expect(plain?.tenant).toBe(false);
      expect(tenant?.tenant).toBe(true);
      expect(tenant?.template).toBe(`/{tenant}${plain?.template}`);
      expect(tenant?.method).toBe(plain?.method);
      expect(tenant?.body).toBe(plain?.body);
      expect(tenant?.segments[0]).toEqual({ variable: "tenant", jsonPath: ["tenant"], pattern: "*" });
    }
  });

  it("parses templates into segments, variables bound to JSON field names, and verbs", () => {
    const [cancel] = httpRoutesOf(a2aServiceBindings.CancelTask);
    expect(cancel).toMatchObject({
      method: "POST",
      segments: [{ literal: "tasks" }, { variable: "id", jsonPath: ["id"], pattern: "*" }],
      verb: "cancel",
      body: "*",
    });
    const [getConfig] = httpRoutesOf(a2aServiceBindings.GetTaskPushNotificationConfig);
    expect(getConfig?.segments).toEqual([
      { literal: "tasks" },
      { variable: "task_id", jsonPath: ["taskId"], pattern: "*" },
      { literal: "pushNotificationConfigs" },
      { variable: "id", jsonPath: ["id"], pattern: "*" },
    ]);
    expect(getConfig?.body).toBe("");
  });

  it("looks methods up by exact JSON-RPC name", () => {
    expect(bindingForJsonRpcMethod("CancelTask")).toBe(a2aServiceBindings.CancelTask);
    expect(bindingForJsonRpcMethod("canceltask")).toBeUndefined();
    expect(bindingForJsonRpcMethod("tasks/cancel")).toBeUndefined();
  });
});
