/**
 * Service parameters (spec §3.2.6, §3.6, §4.6): the A2A-Version rules —
 * unsupported versions refused, patch numbers ignored, an absent header read
 * as 0.3, the query-parameter form — and the A2A-Extensions rules.
 */
import { A2A_VERSION_HEADER, PROTOCOL_BINDING_HTTP_JSON } from "../../../index.js";
import type { HttpJsonWire } from "../http-json-wire.js";
import { httpJsonError } from "../http-json-wire.js";
import { type BindingContext, type BindingRequirement, fail, pass, skip } from "../requirement.js";
import { describeError, expectError, sendRequest, taskRequest, unknownId } from "../scenario.js";
import type { WireReply } from "../wire.js";

/** A version no v1.0 agent serves. */
const UNSERVED_VERSION = "99.0";
const UNKNOWN_EXTENSION = "https://novaos-a2a.invalid/extensions/check-unknown/v1";

/** GetTask of an unknown id with `A2A-Version: 99.0`: read here and by the error-mapping requirements. */
export function versionRefusal(ctx: BindingContext): Promise<WireReply> {
  return ctx.memo("version-refusal", () =>
    ctx.wire.call("GetTask", taskRequest(ctx, unknownId()), { [A2A_VERSION_HEADER]: UNSERVED_VERSION }),
  );
}

/** Whether a request got past version negotiation: any answer but VersionNotSupportedError. */
function served(ctx: BindingContext, reply: WireReply, what: string) {
  const refused = expectError(ctx, reply, "VersionNotSupportedError", what);
  return refused.status === "pass" ? fail(`${what} was refused: ${describeError(reply)}`) : pass();
}

export const SERVICE_PARAMETER_REQUIREMENTS: readonly BindingRequirement[] = [
  {
    id: "VERSION-UNSUPPORTED",
    section: "§3.6.2",
    level: "MUST",
    scope: "binding",
    title: `a request for an unserved A2A-Version (${UNSERVED_VERSION}) is VersionNotSupportedError`,
    async run(ctx) {
      return expectError(ctx, await versionRefusal(ctx), "VersionNotSupportedError", `A2A-Version ${UNSERVED_VERSION}`);
    },
  },
  {
    id: "VERSION-PATCH-IGNORED",
    section: "§3.6",
    level: "MUST",
    scope: "binding",
    title: "the patch number of A2A-Version is not considered (1.0.1 is served as 1.0)",
    async run(ctx) {
      const reply = await ctx.wire.call("GetTask", taskRequest(ctx, unknownId()), { [A2A_VERSION_HEADER]: "1.0.1" });
      return served(ctx, reply, "A2A-Version 1.0.1");
    },
  },
  {
    id: "VERSION-ABSENT-IS-0.3",
    section: "§3.6.2",
    level: "MUST",
    scope: "binding",
    title: "a request without A2A-Version is read as 0.3: an interface serving only 1.0 refuses it",
    async run(ctx) {
      const serves03 = ctx.card.supportedInterfaces.some(
        (i) => i.protocolBinding === ctx.binding && i.url === ctx.iface.url && i.protocolVersion.startsWith("0.3"),
      );
      if (serves03) return skip("the card declares 0.3 for this interface too");
      const reply = await ctx.wire.call("GetTask", taskRequest(ctx, unknownId()), { [A2A_VERSION_HEADER]: null });
      return expectError(ctx, reply, "VersionNotSupportedError", "a request without A2A-Version");
    },
  },
  {
    id: "VERSION-QUERY-PARAMETER",
    section: "§3.6.1",
    level: "SHOULD",
    scope: "binding",
    bindings: [PROTOCOL_BINDING_HTTP_JSON],
    title: "A2A-Version is accepted as a query parameter instead of the header",
    async run(ctx) {
      const wire = ctx.wire as HttpJsonWire;
      const path = `${ctx.iface.tenant ? `/${encodeURIComponent(ctx.iface.tenant)}` : ""}/tasks/${unknownId()}?A2A-Version=1.0`;
      const answer = await wire.sendJson("GET", path, undefined, { [A2A_VERSION_HEADER]: null });
      const reply: WireReply = { ok: false, error: httpJsonError(answer.status, answer.json) };
      return served(ctx, reply, "GET with ?A2A-Version=1.0 and no header");
    },
  },
  {
    id: "EXTENSION-UNKNOWN-IGNORED",
    section: "§4.6.3",
    level: "SHOULD",
    scope: "binding",
    title: "activating an extension the agent does not know is ignored",
    async run(ctx) {
      const reply = await ctx.wire.call("GetTask", taskRequest(ctx, unknownId()), {
        "A2A-Extensions": UNKNOWN_EXTENSION,
      });
      return expectError(ctx, reply, "TaskNotFoundError", "GetTask with an unknown extension activated");
    },
  },
  {
    id: "EXTENSION-REQUIRED",
    section: "§3.3.4, §4.6.3",
    level: "MUST",
    scope: "binding",
    title: "a message that does not activate a required extension is ExtensionSupportRequiredError",
    async run(ctx) {
      const required = ctx.card.capabilities?.extensions.filter((e) => e.required) ?? [];
      if (required.length === 0) return skip("the card declares no required extension");
      const reply = await ctx.wire.call("SendMessage", sendRequest(ctx, ctx.options.quick), { "A2A-Extensions": null });
      return expectError(ctx, reply, "ExtensionSupportRequiredError", `SendMessage without ${required[0]?.uri}`);
    },
  },
];
