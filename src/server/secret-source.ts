/**
 * The seam through which `ctx.getSecret()` reaches secrets delivered with a
 * request (the user-context extension and its sealed envelopes live in
 * src/security). The server knows only this interface.
 */
import type { ExtensionActivation } from "../a2a/extensions.js";

/** What identifies the call a secret was sealed for. */
export interface SecretCallInfo {
  readonly activation: ExtensionActivation;
  readonly tenantId: string;
  readonly instanceId: string;
  readonly runId: string;
}

export interface SecretSource {
  /**
   * The secret `name` delivered with this call, or undefined when it was not
   * delivered. Throws (never returns undefined) when a delivered secret fails
   * to open.
   */
  getSecret(name: string, call: SecretCallInfo): Promise<string | undefined>;
  /** The names of the secrets delivered with this call, for error details. Never the values. */
  deliveredNames(call: SecretCallInfo): readonly string[];
}
