/**
 * The `novaos.platform/extensions/user-context/v1` A2A extension: a run's
 * secrets, sealed to this pod, at `metadata[uri].secrets[name]`. Register it
 * and hand it to the builder as the secret source:
 *
 * ```ts
 * const userContext = new UserContextExtension({ required: true });
 * const agent = new AgentBuilder({ name: "mailer", extensions: [userContext], secrets: userContext });
 * agent.skill("send", async (ctx) => { const password = await ctx.getSecret("SMTP_PASSWORD"); … });
 * ```
 *
 * It is also the builder's `SecretSource` (structurally: security does not
 * import the server layer).
 *
 * Serving side only: sealing needs the pod's public key, which lives in the
 * control plane, so the calling half publishes nothing.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { A2AExtension, type ExtensionActivation } from "../a2a/extensions.js";
import { isJsonObject } from "../a2a/json-object.js";
import { SealedEnvelopeFormatError } from "../errors/novaos-errors.js";
import { PodKeyring } from "./pod-keyring.js";
import { SEALED_ENVELOPE_SUITE } from "./sealed-envelope.js";
import { SealedUserContext } from "./sealed-user-context.js";

export const USER_CONTEXT_EXTENSION_URI = "novaos.platform/extensions/user-context/v1";

export interface UserContextExtensionOptions {
  /** The pod's keys; default a `PodKeyring` over the mounted key directory (read lazily). */
  keyring?: PodKeyring;
  /**
   * Whether callers must activate the extension to be served at all (-32008
   * otherwise). Default false: an agent whose secrets are optional stays
   * reachable by callers that cannot seal.
   */
  required?: boolean;
}

/**
 * The call a secret is asked for: the server's `SecretCallInfo`, restated
 * here because security sits below the server layer (the extension satisfies
 * the server's `SecretSource` structurally).
 */
export interface UserContextCall {
  readonly activation: ExtensionActivation;
  readonly tenantId: string;
  readonly instanceId: string;
  readonly runId: string;
}

export class UserContextExtension extends A2AExtension {
  readonly keyring: PodKeyring;

  constructor(options: UserContextExtensionOptions = {}) {
    super({
      uri: USER_CONTEXT_EXTENSION_URI,
      description: "Per-run secrets, sealed to this agent's pod key (NovaOS Sealed Envelope v1)",
      required: options.required ?? false,
    });
    this.keyring = options.keyring ?? new PodKeyring();
  }

  /** The suites this pod opens: what a sealer can act on. Key ids are not published (the control plane has them). */
  override params(): JsonObject {
    return { suites: [SEALED_ENVELOPE_SUITE] };
  }

  /**
   * The delivered envelopes, unopened. Nothing published means no secrets.
   * A payload that is not `{ secrets: { <name>: <object> } }` is refused
   * (`SealedEnvelopeFormatError`) rather than read as "no secrets", which
   * would surface later as a missing secret pointing at the wrong problem.
   * Sibling members of `secrets` are ignored: v1 may grow them.
   */
  override readValue(value: JsonValue | undefined): SealedUserContext {
    if (value === undefined || value === null) return new SealedUserContext({}, this.keyring);
    if (!isJsonObject(value) || !isJsonObject(value.secrets)) {
      throw new SealedEnvelopeFormatError(
        `The ${USER_CONTEXT_EXTENSION_URI} payload must be an object with a "secrets" object`,
      );
    }
    for (const [name, envelope] of Object.entries(value.secrets)) {
      if (!isJsonObject(envelope)) {
        throw new SealedEnvelopeFormatError(`The sealed secret '${name}' is not an envelope object`);
      }
    }
    return new SealedUserContext(value.secrets, this.keyring);
  }

  /**
   * The request's sealed context, read through the registered extension;
   * undefined when the caller did not activate it. Throws
   * `SealedEnvelopeFormatError` for a payload of the wrong shape.
   */
  context(call: Pick<UserContextCall, "activation">): SealedUserContext | undefined {
    const value = call.activation.value(this.uri);
    return value instanceof SealedUserContext ? value : undefined;
  }

  /** SecretSource: undefined when not delivered; a failed open throws. */
  async getSecret(name: string, call: UserContextCall): Promise<string | undefined> {
    const context = this.context(call);
    if (!context?.has(name)) return undefined;
    return context.open(name, call);
  }

  /** SecretSource: the delivered names (never values); none when the payload is unreadable. */
  deliveredNames(call: UserContextCall): readonly string[] {
    try {
      return this.context(call)?.secretNames ?? [];
    } catch {
      return [];
    }
  }
}
