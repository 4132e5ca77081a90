/**
 * Whether an answer's `Content-Type` announces JSON: `application/json` or a
 * `+json` type (`application/problem+json`), any parameters. What every
 * platform client and tool call accepts as a JSON answer; anything else (a
 * proxy's HTML page, `text/plain`) is refused before the body is read.
 */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export function isJsonMediaType(contentType: string | null | undefined): boolean {
  return contentType != null && JSON_MEDIA_TYPE.test(contentType);
}
