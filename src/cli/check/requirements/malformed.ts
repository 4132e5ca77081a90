/**
 * Malformed input (spec §3.3.2: servers MUST validate all input; §9.3, §9.5:
 * the JSON-RPC 2.0 envelope and its standard errors): what comes back for a
 * body that is not JSON, an envelope that is not a request, an unknown
 * method, a request missing its message, and an empty message.
 */

import { PROTOCOL_BINDING_HTTP_JSON, PROTOCOL_BINDING_JSONRPC } from "../../../index.js";
import { GRPC_STATUS_CODES } from "../../../protocol/index.js";
import type { HttpJsonWire } from "../http-json-wire.js";
import type { JsonRpcWire } from "../jsonrpc-wire.js";
import { type BindingRequirement, fail, pass, type Verdict } from "../requirement.js";
import { describeError, messageJson, withTenant } from "../scenario.js";
import { isJsonObjectValue, type WireReply } from "../wire.js";

/** The JSON-RPC error code of a raw answer, or a failure saying why there is none. */
async function jsonRpcCodeOf(
  wire: JsonRpcWire,
  body: string,
): Promise<{ code?: number; id?: unknown; problem?: string }> {
  const answer = await wire.postJson(body);
  if (!isJsonObjectValue(answer.json)) return { problem: `HTTP ${answer.status}, not a JSON-RPC response` };
  const error = answer.json.error;
  if (!isJsonObjectValue(error)) return { problem: "no error answered" };
  return { code: typeof error.code === "number" ? error.code : undefined, id: answer.json.id };
}

function expectCode(got: { code?: number; problem?: string }, want: number, what: string): Verdict {
  if (got.problem) return fail(`${what}: ${got.problem}`);
  return got.code === want ? pass() : fail(`${what} answered ${got.code}; ${want} is due`);
}

/** The validation error a binding answers a bad request with (§3.3.2, §9.5, §10.6, §11.6). */
function isValidationError(binding: string, reply: WireReply): boolean {
  if (reply.ok) return false;
  const e = reply.error;
  if (binding === PROTOCOL_BINDING_JSONRPC) return e.jsonRpcCode === -32602;
  if (binding === PROTOCOL_BINDING_HTTP_JSON) return e.httpStatus === 400;
  return e.grpcCode === GRPC_STATUS_CODES.INVALID_ARGUMENT;
}

const VALIDATION_ERROR = { JSONRPC: "-32602", "HTTP+JSON": "HTTP 400", GRPC: "INVALID_ARGUMENT" } as const;

export const MALFORMED_REQUIREMENTS: readonly BindingRequirement[] = [
  {
    id: "JSONRPC-PARSE-ERROR",
    section: "§9.5",
    level: "MUST",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_JSONRPC],
    title: "a body that is not JSON is -32700",
    async run(ctx) {
      return expectCode(
        await jsonRpcCodeOf(ctx.wire as JsonRpcWire, '{"jsonrpc": "2.0", "id": 1, "method": '),
        -32700,
        "a truncated body",
      );
    },
  },
  {
    id: "JSONRPC-INVALID-REQUEST",
    section: "§9.3, §9.5",
    level: "MUST",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_JSONRPC],
    title: "JSON that is not a JSON-RPC 2.0 request (no method, wrong version, method not a string) is -32600",
    async run(ctx) {
      const wire = ctx.wire as JsonRpcWire;
      const cases: [string, string][] = [
        ["no method", JSON.stringify({ jsonrpc: "2.0", id: 1, params: {} })],
        ['"jsonrpc": "1.0"', JSON.stringify({ jsonrpc: "1.0", id: 2, method: "GetTask", params: { id: "x" } })],
        ["a numeric method", JSON.stringify({ jsonrpc: "2.0", id: 3, method: 42, params: {} })],
      ];
      const failures: string[] = [];
      for (const [what, body] of cases) {
        const verdict = expectCode(await jsonRpcCodeOf(wire, body), -32600, what);
        if (verdict.status === "fail") failures.push(verdict.reason);
      }
      return failures.length === 0 ? pass() : fail(failures.join("; "));
    },
  },
  {
    id: "JSONRPC-METHOD-NOT-FOUND",
    section: "§9.5",
    level: "MUST",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_JSONRPC],
    title: "an unknown method is -32601",
    async run(ctx) {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "NoSuchMethod", params: {} });
      return expectCode(await jsonRpcCodeOf(ctx.wire as JsonRpcWire, body), -32601, "method NoSuchMethod");
    },
  },
  {
    id: "JSONRPC-ID-ECHO",
    section: "§9.3",
    level: "MUST",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_JSONRPC],
    title: "a response carries the request's id (string or number)",
    async run(ctx) {
      const wire = ctx.wire as JsonRpcWire;
      for (const id of ["check-id-echo", 7]) {
        const body = JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "GetTask",
          params: withTenant(ctx, { id: "check-unknown" }),
        });
        const got = await jsonRpcCodeOf(wire, body);
        if (got.id !== id) return fail(`request id ${JSON.stringify(id)} came back as ${JSON.stringify(got.id)}`);
      }
      return pass();
    },
  },
  {
    id: "HTTP-JSON-NOT-JSON",
    section: "§3.3.2, §11.6",
    level: "MUST",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_HTTP_JSON],
    title: 'a body that is not JSON is HTTP 400 with a {"error": …} body',
    async run(ctx) {
      const answer = await (ctx.wire as HttpJsonWire).sendJson("POST", "/message:send", '{"message": ');
      if (answer.status !== 400) return fail(`HTTP ${answer.status}; 400 is due`);
      return isJsonObjectValue(answer.json) && isJsonObjectValue(answer.json.error)
        ? pass()
        : fail('the body has no "error" object');
    },
  },
  {
    id: "MISSING-MESSAGE",
    section: "§3.3.2, §9.5",
    level: "MUST",
    scope: "binding",
    title: "SendMessage without a message is a validation error (-32602, HTTP 400, INVALID_ARGUMENT)",
    async run(ctx) {
      const reply = await ctx.wire.call("SendMessage", withTenant(ctx, {}));
      if (isValidationError(ctx.binding, reply)) return pass();
      return fail(`answered ${describeError(reply)}; ${VALIDATION_ERROR[ctx.binding]} is due`);
    },
  },
  {
    id: "EMPTY-PARTS",
    section: "§5.7",
    level: "SHOULD",
    scope: "binding",
    title: "a message with no parts (a REQUIRED list) is refused as a validation error",
    async run(ctx) {
      const reply = await ctx.wire.call(
        "SendMessage",
        withTenant(ctx, { message: messageJson(ctx.options.quick, { parts: [] }) }),
      );
      if (isValidationError(ctx.binding, reply)) return pass();
      return fail(`answered ${describeError(reply)}; ${VALIDATION_ERROR[ctx.binding]} is due`);
    },
  },
];
