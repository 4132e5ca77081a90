/**
 * Request media types of the HTTP+JSON binding (spec §11.1): the A2A media
 * type, and plain JSON because peers send it (a2a-js on purpose, for interop).
 * Anything else is ContentTypeNotSupportedError.
 */
import { A2A_JSON_MEDIA_TYPE, JSON_MEDIA_TYPE } from "../../a2a/constants.js";
import { ContentTypeNotSupportedError } from "../../a2a/errors.js";

const ACCEPTED = new Set([A2A_JSON_MEDIA_TYPE, JSON_MEDIA_TYPE]);

/**
 * The error for a request body of this `Content-Type`, or undefined when it
 * is accepted. Media types compare case-insensitively; a `charset` other than
 * UTF-8 is refused (JSON is UTF-8, RFC 8259 §8.1); other parameters are ignored.
 */
export function checkRequestContentType(contentType: string | undefined): ContentTypeNotSupportedError | undefined {
  const [type = "", ...params] = (contentType ?? "").split(";");
  const mediaType = type.trim().toLowerCase();
  const charset = params
    .map((p) => p.split("="))
    .find(([name]) => name?.trim().toLowerCase() === "charset")?.[1]
    ?.trim()
    .replace(/^"(.*)"$/, "$1")
    .toLowerCase();
  if (ACCEPTED.has(mediaType) && (charset === undefined || charset === "utf-8")) return undefined;
  const got = contentType === undefined ? "no Content-Type" : `Content-Type '${contentType}'`;
  return new ContentTypeNotSupportedError(
    `Unsupported request body with ${got}; send ${A2A_JSON_MEDIA_TYPE} or ${JSON_MEDIA_TYPE}`,
    { metadata: { contentType: contentType ?? "", supportedContentTypes: [...ACCEPTED].join(",") } },
  );
}
