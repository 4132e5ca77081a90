/**
 * The one request `Content-Type` rule of the two JSON bindings, JSON-RPC
 * (spec §9.1) and HTTP+JSON (§11.1): `application/json` (which peers send,
 * a2a-js on purpose for interop) or `application/a2a+json`, compared
 * case-insensitively, with a `charset` that is absent or `utf-8` (JSON is
 * UTF-8, RFC 8259 §8.1; a body announced in another charset cannot be read as
 * sent); other parameters are ignored. Anything else is
 * ContentTypeNotSupportedError, which each binding answers in its own way.
 * Whether a request may come without the header is the binding's to say.
 */
import { A2A_JSON_MEDIA_TYPE, JSON_MEDIA_TYPE } from "../a2a/constants.js";
import { ContentTypeNotSupportedError } from "../a2a/errors.js";

const ACCEPTED: ReadonlySet<string> = new Set([A2A_JSON_MEDIA_TYPE, JSON_MEDIA_TYPE]);

/** Verdicts by header value, as sent: clients send the same few values on every request. */
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 1024;

function accepted(contentType: string): boolean {
  const [type = "", ...params] = contentType.split(";");
  if (!ACCEPTED.has(type.trim().toLowerCase())) return false;
  const charset = params
    .map((param) => param.split("="))
    .find(([name]) => name?.trim().toLowerCase() === "charset")?.[1]
    ?.trim()
    .replace(/^"(.*)"$/, "$1")
    .toLowerCase();
  return charset === undefined || charset === "utf-8";
}

/** The error for a request body of this `Content-Type`, or undefined when the rule accepts it. */
export function checkRequestContentType(contentType: string | undefined): ContentTypeNotSupportedError | undefined {
  if (contentType !== undefined) {
    let ok = verdicts.get(contentType);
    if (ok === undefined) {
      ok = accepted(contentType);
      if (verdicts.size < MAX_VERDICTS) verdicts.set(contentType, ok);
    }
    if (ok) return undefined;
  }
  const got = contentType === undefined ? "no Content-Type" : `Content-Type '${contentType}'`;
  return new ContentTypeNotSupportedError(
    `Unsupported request body with ${got}; send ${A2A_JSON_MEDIA_TYPE} or ${JSON_MEDIA_TYPE}`,
    { metadata: { contentType: contentType ?? "", supportedContentTypes: [...ACCEPTED].join(",") } },
  );
}
