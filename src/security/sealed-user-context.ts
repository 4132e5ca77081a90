/**
 * The sealed secrets one request delivered (user-context/v1), opened one at a
 * time. Holding one is holding ciphertext and a keyring, never plaintext:
 * nothing is decrypted until `open`, and nothing is cached after it. It is
 * safe to log: it renders the secret names only, which travel in the clear.
 */
import { SecretNotDeliveredError } from "../errors/novaos-errors.js";
import type { PodKeyring } from "./pod-keyring.js";

/** The run a secret is opened for; the secret name is the one asked for, never a separate argument. */
export interface SecretBinding {
  readonly tenantId: string;
  readonly instanceId: string;
  readonly runId: string;
}

export class SealedUserContext {
  readonly #envelopes: ReadonlyMap<string, unknown>;
  readonly #keyring: PodKeyring;

  constructor(envelopes: Readonly<Record<string, unknown>>, keyring: PodKeyring) {
    this.#envelopes = new Map(Object.entries(envelopes));
    this.#keyring = keyring;
  }

  /** Every secret name delivered, sorted. Safe to log. */
  get secretNames(): string[] {
    return [...this.#envelopes.keys()].sort();
  }

  has(name: string): boolean {
    return this.#envelopes.has(name);
  }

  /**
   * Opens the secret delivered under `name` for this run. The binding comes
   * from the request being served, so an envelope replayed from another run,
   * or moved to another name, does not open. Throws `SecretNotDeliveredError`
   * when no secret arrived under that name, else whatever the keyring throws
   * (`RecipientKeyUnavailableError`, `SealedEnvelopeFormatError`,
   * `SealedEnvelopeError`).
   */
  async open(name: string, binding: SecretBinding): Promise<string> {
    if (!this.#envelopes.has(name)) {
      throw new SecretNotDeliveredError(`Secret '${name}' was not delivered with this request`, {
        details: { name, delivered: this.secretNames },
      });
    }
    return this.#keyring.open(this.#envelopes.get(name), {
      tenantId: binding.tenantId,
      instanceId: binding.instanceId,
      runId: binding.runId,
      secretName: name,
    });
  }

  toJSON(): { secretNames: string[] } {
    return { secretNames: this.secretNames };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `SealedUserContext { secretNames: ${JSON.stringify(this.secretNames)} }`;
  }
}
