/**
 * The one error the SSRF guard throws, whether it refuses a URL up front
 * (`validateAgentUrl`) or a connection at connect time (the guarded
 * dispatcher). It is a `NovaOSError`, never a connection error: retrying a
 * refused address cannot succeed, so `isRetryable` stays false.
 */
import { NovaOSError, type NovaOSErrorOptions } from "../errors/novaos-errors.js";

/** Why a URL or a connection was refused. */
export type AgentUrlRejection =
  /** Not a URL, nor a `host:port` authority (bad IPv6 literal, port out of range, empty host). */
  | "unparseable"
  /** The scheme is not in the allow-list. */
  | "scheme"
  /** The URL carries a user name or password. */
  | "credentials"
  /** The host is not covered by any allowed suffix. */
  | "host-suffix"
  /** The host is, or resolves to, a private, loopback, link-local or reserved address. */
  | "blocked-address"
  /** The host name does not resolve, so it cannot be proven safe. */
  | "unresolvable";

export class AgentUrlRejectedError extends NovaOSError {
  static override readonly brand: string = "AgentUrlRejectedError";
  readonly reason: AgentUrlRejection;
  /** The URL or host that was refused. */
  readonly url: string;
  /** The offending resolved address, for `blocked-address`. */
  readonly address: string | undefined;

  constructor(
    message: string,
    options: NovaOSErrorOptions & { reason: AgentUrlRejection; url: string; address?: string },
  ) {
    super(message, options);
    this.reason = options.reason;
    this.url = options.url;
    this.address = options.address;
  }
}
