/**
 * How errors look on each binding (spec §5.4, §9.5, §10.6, §11.6): the code,
 * status and ErrorInfo the table gives each A2A error, read off the answers
 * the other requirements provoked.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { PROTOCOL_BINDING_HTTP_JSON, PROTOCOL_BINDING_JSONRPC } from "../../../index.js";
import type { A2AErrorType } from "../../../protocol/index.js";
import { type BindingContext, type BindingRequirement, fail, pass, skip } from "../requirement.js";
import { isVerdict, mappingProblems } from "../scenario.js";
import { isJsonObjectValue, type WireError } from "../wire.js";
import { versionRefusal } from "./service-parameters.js";
import { cancelFinishedReply, unknownTaskReply } from "./tasks.js";

/** A requirement that the error `type`, provoked by `provoke`, is represented as §5.4 says on this binding. */
function mapped(
  id: string,
  type: A2AErrorType,
  provoke: (ctx: BindingContext) => Promise<WireError | string>,
): BindingRequirement {
  return {
    id,
    section: "§5.4, §10.6, §11.6",
    level: "MUST",
    scope: "binding",
    title: `${type} carries its §5.4 code (JSON-RPC), status and ErrorInfo reason/domain (HTTP+JSON, gRPC)`,
    async run(ctx) {
      const error = await provoke(ctx);
      if (typeof error === "string") return skip(error);
      const problems = mappingProblems(ctx.binding, error, type);
      return problems.length === 0 ? pass() : fail(problems.join("; "));
    },
  };
}

/** Every error answer the run has read on this binding so far, for the shape rules. */
async function sampleErrors(ctx: BindingContext): Promise<WireError[]> {
  const unknown = await unknownTaskReply(ctx);
  const version = await versionRefusal(ctx);
  return [unknown, version].flatMap((r) => (r.ok ? [] : [r.error]));
}

export const ERROR_REQUIREMENTS: readonly BindingRequirement[] = [
  mapped("ERROR-TASK-NOT-FOUND", "TaskNotFoundError", async (ctx) => {
    const reply = await unknownTaskReply(ctx);
    return reply.ok ? "GetTask of an unknown id succeeded" : reply.error;
  }),
  mapped("ERROR-TASK-NOT-CANCELABLE", "TaskNotCancelableError", async (ctx) => {
    const outcome = await cancelFinishedReply(ctx);
    if (isVerdict(outcome)) return outcome.status === "skip" ? outcome.reason : "no finished task";
    return outcome.reply.ok ? "CancelTask of a finished task succeeded" : outcome.reply.error;
  }),
  mapped("ERROR-VERSION-NOT-SUPPORTED", "VersionNotSupportedError", async (ctx) => {
    const reply = await versionRefusal(ctx);
    return reply.ok ? "an unsupported A2A-Version was served" : reply.error;
  }),
  {
    id: "ERROR-JSONRPC-DATA",
    section: "§9.5",
    level: "MUST",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_JSONRPC],
    title: "JSON-RPC error.data, when present, is a list of objects that each carry @type",
    async run(ctx) {
      for (const error of await sampleErrors(ctx)) {
        const data = isJsonObjectValue(error.body) ? error.body.data : undefined;
        if (data === undefined) continue;
        if (!Array.isArray(data)) return fail(`error.data is ${typeof data}, not a list`);
        if (!data.every((d) => isJsonObjectValue(d) && typeof d["@type"] === "string"))
          return fail("an error.data entry has no @type");
      }
      return pass();
    },
  },
  {
    id: "ERROR-JSONRPC-ERRORINFO",
    section: "§9.5",
    level: "SHOULD",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_JSONRPC],
    title: "JSON-RPC A2A errors carry a google.rpc.ErrorInfo in error.data",
    async run(ctx) {
      const errors = await sampleErrors(ctx);
      const without = errors.filter((e) => e.reason === undefined);
      return without.length === 0 ? pass() : fail(`${without.length} of ${errors.length} errors carry no ErrorInfo`);
    },
  },
  {
    id: "ERROR-HTTP-BODY",
    section: "§11.6",
    level: "MUST",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_HTTP_JSON],
    title: 'HTTP+JSON errors are {"error": {code = HTTP status, status, message, details[] each with @type}}',
    async run(ctx) {
      for (const error of await sampleErrors(ctx)) {
        const body =
          isJsonObjectValue(error.body) && isJsonObjectValue(error.body.error)
            ? (error.body.error as JsonObject)
            : undefined;
        if (!body) return fail(`HTTP ${error.httpStatus}: the body has no "error" object`);
        if (body.code !== error.httpStatus)
          return fail(`error.code ${JSON.stringify(body.code)} is not the HTTP status ${error.httpStatus}`);
        if (typeof body.status !== "string") return fail("error.status is missing");
        if (typeof body.message !== "string") return fail("error.message is missing");
        const details = body.details ?? [];
        if (!Array.isArray(details) || !details.every((d) => isJsonObjectValue(d) && typeof d["@type"] === "string")) {
          return fail("an error.details entry has no @type");
        }
      }
      return pass();
    },
  },
];
