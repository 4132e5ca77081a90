/**
 * `A2A-Version` negotiation (spec §3.6). A v1.0 server serves `1.0`; patch
 * versions are not considered (`1.0.3` is `1.0`). An absent or empty header
 * means `0.3` and is refused like any other unserved version, with a message
 * that says the header is missing (a caller that sent nothing never asked for
 * 0.3 on purpose).
 */
import { VersionNotSupportedError } from "./errors.js";
import { type HeadersLike, headerValue } from "./headers.js";

export const A2A_VERSION_HEADER = "A2A-Version";
/** The protocol version this SDK speaks and sends (Major.Minor). */
export const A2A_PROTOCOL_VERSION = "1.0";
/** The pinned spec release the generated code comes from. */
export const A2A_SPEC_VERSION = "1.0.1";
/** What an absent or empty `A2A-Version` means (§3.6.2). */
export const A2A_ABSENT_VERSION = "0.3";

const SERVED = /^1\.0(?:\.\d+)?$/;

/** The version a request asks for; absent or blank means {@link A2A_ABSENT_VERSION}. */
export function requestedVersion(headers: HeadersLike | null | undefined): string {
  const value = headerValue(headers, A2A_VERSION_HEADER)?.trim();
  return value ? value : A2A_ABSENT_VERSION;
}

export function isSupportedVersion(version: string): boolean {
  return SERVED.test(version.trim());
}

/** The error to answer with, or undefined when the version is served. */
export function checkVersion(version: string): VersionNotSupportedError | undefined {
  if (isSupportedVersion(version)) return undefined;
  return new VersionNotSupportedError(
    `A2A version '${version}' is not supported by this handler. Expected version '${A2A_PROTOCOL_VERSION}'.`,
    { metadata: { requestedVersion: version, supportedVersions: A2A_PROTOCOL_VERSION } },
  );
}

/**
 * The error to answer a request with, or undefined when its version is
 * served. A missing (or blank) header is named as missing: it means 0.3
 * (§3.6.2), which this agent does not serve.
 */
export function checkRequestVersion(headers: HeadersLike | null | undefined): VersionNotSupportedError | undefined {
  const given = headerValue(headers, A2A_VERSION_HEADER)?.trim();
  if (given) return checkVersion(given);
  return new VersionNotSupportedError(
    `The ${A2A_VERSION_HEADER} header is missing, which means version ${A2A_ABSENT_VERSION}; this agent serves A2A ` +
      `${A2A_PROTOCOL_VERSION}: send '${A2A_VERSION_HEADER}: ${A2A_PROTOCOL_VERSION}'.`,
    { metadata: { requestedVersion: A2A_ABSENT_VERSION, supportedVersions: A2A_PROTOCOL_VERSION } },
  );
}
