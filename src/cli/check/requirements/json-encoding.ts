/** The JSON form of answers on the JSON bindings (spec §5.5, §5.6.1, §9.1, §11.1). */
import {
  A2A_JSON_MEDIA_TYPE,
  PROTOCOL_BINDING_HTTP_JSON,
  PROTOCOL_BINDING_JSONRPC,
  SendMessageResponseSchema,
} from "../../../index.js";
import type { HttpJsonWire } from "../http-json-wire.js";
import { httpRequestOf } from "../http-json-wire.js";
import { jsonFormProblems } from "../json-form.js";
import { type BindingRequirement, fail, pass, skip } from "../requirement.js";
import { quickReply, sendRequest } from "../scenario.js";

const JSON_BINDINGS = [PROTOCOL_BINDING_JSONRPC, PROTOCOL_BINDING_HTTP_JSON] as const;

const mediaType = (contentType: string | undefined) => (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";

export const JSON_ENCODING_REQUIREMENTS: readonly BindingRequirement[] = [
  {
    id: "JSON-NAMES",
    section: "§5.5",
    level: "MUST",
    scope: "binding",
    bindings: JSON_BINDINGS,
    title: "answers use camelCase field names and enum value names (TASK_STATE_…, ROLE_…)",
    async run(ctx) {
      const reply = await quickReply(ctx);
      if (!reply.ok) return skip("SendMessage failed");
      const problems = jsonFormProblems(SendMessageResponseSchema, reply.json, ["name", "enum"]);
      return problems.length === 0 ? pass() : fail(problems.slice(0, 3).join("; "));
    },
  },
  {
    id: "JSON-TIMESTAMPS",
    section: "§5.6.1",
    level: "MUST",
    scope: "binding",
    bindings: JSON_BINDINGS,
    title: "timestamps are ISO 8601 in UTC, with a Z",
    async run(ctx) {
      const reply = await quickReply(ctx);
      if (!reply.ok) return skip("SendMessage failed");
      const problems = jsonFormProblems(SendMessageResponseSchema, reply.json, ["timestamp"]);
      return problems.length === 0 ? pass() : fail(problems.slice(0, 3).join("; "));
    },
  },
  {
    id: "JSONRPC-CONTENT-TYPE",
    section: "§9.1",
    level: "MUST",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_JSONRPC],
    title: "JSON-RPC answers are application/json",
    async run(ctx) {
      const reply = await quickReply(ctx);
      const type = mediaType(reply.contentType);
      return type === "application/json" ? pass() : fail(`Content-Type is ${JSON.stringify(reply.contentType)}`);
    },
  },
  {
    id: "HTTP-JSON-CONTENT-TYPE",
    section: "§11.1",
    level: "SHOULD",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_HTTP_JSON],
    title: "HTTP+JSON answers are application/a2a+json",
    async run(ctx) {
      const reply = await quickReply(ctx);
      const type = mediaType(reply.contentType);
      return type === A2A_JSON_MEDIA_TYPE ? pass() : fail(`Content-Type is ${JSON.stringify(reply.contentType)}`);
    },
  },
  {
    id: "HTTP-JSON-A2A-MEDIA-TYPE",
    section: "§11.1, §14.1",
    level: "SHOULD",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_HTTP_JSON],
    title: "HTTP+JSON accepts request bodies sent as application/a2a+json",
    async run(ctx) {
      const { verb, path, body } = httpRequestOf("SendMessage", sendRequest(ctx, ctx.options.quick));
      const answer = await (ctx.wire as HttpJsonWire).sendJson(verb, path, body, {
        "content-type": A2A_JSON_MEDIA_TYPE,
      });
      return answer.status >= 200 && answer.status < 300
        ? pass()
        : fail(`HTTP ${answer.status}: ${answer.text.slice(0, 120)}`);
    },
  },
];
