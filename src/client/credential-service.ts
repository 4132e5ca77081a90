/**
 * Per-call credentials for the AuthInterceptor. The SDK never obtains or
 * refreshes a credential: the application's service does, and is asked on
 * every call, for the security scheme the agent card requires.
 */
import type { ClientCallContext } from "./interceptors.js";

/**
 * A bare credential (formatted into a header by the scheme it answers), or
 * ready headers used unchanged.
 */
export type Credential = string | Readonly<Record<string, string>>;

export interface CredentialService {
  /**
   * The credential for `schemeName` (a key of the card's `securitySchemes`;
   * `""` when the call has no agent card), or undefined when there is none.
   */
  getCredentials(
    schemeName: string,
    context: ClientCallContext,
  ): Credential | undefined | Promise<Credential | undefined>;
}

/** The `ClientCallContext.state` key naming the session whose credentials a call uses. */
export const SESSION_ID_STATE_KEY = "sessionId";

/**
 * Credentials kept in memory by session and scheme. The session is
 * `context.state.sessionId`, `""` when the call names none.
 */
export class InMemoryContextCredentialStore implements CredentialService {
  readonly #sessions = new Map<string, Map<string, string>>();

  setCredentials(sessionId: string, schemeName: string, credential: string): void {
    let schemes = this.#sessions.get(sessionId);
    if (!schemes) {
      schemes = new Map();
      this.#sessions.set(sessionId, schemes);
    }
    schemes.set(schemeName, credential);
  }

  getCredentials(schemeName: string, context: ClientCallContext): string | undefined {
    const session = context.state[SESSION_ID_STATE_KEY];
    return this.#sessions.get(typeof session === "string" ? session : "")?.get(schemeName);
  }

  /** Never print the credentials. */
  toJSON(): { type: string; sessions: number } {
    return { type: "InMemoryContextCredentialStore", sessions: this.#sessions.size };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `InMemoryContextCredentialStore { sessions: ${this.#sessions.size}, credentials: [redacted] }`;
  }
}
