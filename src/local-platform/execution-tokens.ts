/**
 * `ExecutionTokenIssuer`: the local platform's signing key for execution
 * tokens. Each run gets an RS256 JWT with the claims the cluster's gateway
 * puts in one (`user_id`, `tenant_id`, `run_id`, `instance_id`, the agent),
 * and the public key is served as a JWKS at `/.well-known/jwks.json` of the
 * gateway, so `JwksTokenVerifier` pointed at the local gateway accepts them
 * exactly as it accepts the cluster's. The key pair is made fresh at every
 * start and never leaves the process.
 */
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, jwtVerify, type KeyObject, SignJWT } from "jose";
import {
  DEFAULT_TOKEN_AUDIENCE,
  EXECUTION_TOKEN_ALGORITHMS,
  type ExecutionTokenClaims,
} from "../security/token-verifier.js";

/** The issuer of local execution tokens unless the platform is told another. */
export const LOCAL_TOKEN_ISSUER = "novaos-local-platform";
/** How long a run's token lives: as long as the cluster's (one hour). */
export const EXECUTION_TOKEN_TTL_SECONDS = 3600;

/** One caller of a chained run: the agent whose run called the next one through the agents tool. */
export interface ChainLink {
  readonly agent_id: string;
  readonly instance_id: string;
  readonly run_id: string;
}

/** A write-class call the user confirmed: one later call of `tool_name` under this token may run. */
export interface WriteConfirmation {
  readonly call_id: string;
  readonly tool_name: string;
}

export type ExecutionTokenGrant = Pick<ExecutionTokenClaims, "user_id" | "tenant_id" | "run_id" | "instance_id"> &
  Partial<Pick<ExecutionTokenClaims, "agent_id" | "agent_name" | "scopes">> & {
    /** The callers of a run started by the agents tool, outermost first (absent for a run the gateway started). */
    call_chain?: readonly ChainLink[];
    /** The write-class calls the user confirmed for this turn. */
    write_confirmations?: readonly WriteConfirmation[];
  };

export interface MintOptions {
  /** Lifetime in seconds from now; negative for a token that is already expired (tests). */
  expiresInSeconds?: number;
}

export class ExecutionTokenIssuer {
  readonly issuer: string;
  readonly audience: string;
  readonly keyId: string;
  readonly #privateKey: KeyObject | CryptoKey;
  readonly #publicKey: KeyObject | CryptoKey;
  readonly #jwk: JWK;

  private constructor(
    issuer: string,
    audience: string,
    keys: { privateKey: KeyObject | CryptoKey; publicKey: KeyObject | CryptoKey },
    jwk: JWK,
  ) {
    this.issuer = issuer;
    this.audience = audience;
    this.keyId = jwk.kid as string;
    this.#privateKey = keys.privateKey;
    this.#publicKey = keys.publicKey;
    this.#jwk = jwk;
  }

  static async create(options: { issuer?: string; audience?: string } = {}): Promise<ExecutionTokenIssuer> {
    const algorithm = EXECUTION_TOKEN_ALGORITHMS[0] as string;
    const keys = await generateKeyPair(algorithm);
    const jwk = { ...(await exportJWK(keys.publicKey)), kid: randomUUID(), alg: algorithm, use: "sig" };
    return new ExecutionTokenIssuer(
      options.issuer ?? LOCAL_TOKEN_ISSUER,
      options.audience ?? DEFAULT_TOKEN_AUDIENCE,
      keys,
      jwk,
    );
  }

  /** A signed execution token carrying `grant`. */
  mint(grant: ExecutionTokenGrant, options: MintOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const lifetime = options.expiresInSeconds ?? EXECUTION_TOKEN_TTL_SECONDS;
    return new SignJWT({ ...grant })
      .setProtectedHeader({ alg: EXECUTION_TOKEN_ALGORITHMS[0] as string, kid: this.keyId, typ: "JWT" })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(grant.user_id)
      .setIssuedAt(Math.min(now, now + lifetime))
      .setExpirationTime(now + lifetime)
      .sign(this.#privateKey);
  }

  /** The JWKS body: the one public key. */
  jwks(): { keys: JWK[] } {
    return { keys: [{ ...this.#jwk }] };
  }

  /** The claims of a token this platform minted, or undefined when it is not one (expired, forged, malformed). */
  async claimsOf(token: string): Promise<(JWTPayload & ExecutionTokenGrant) | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#publicKey, {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: [...EXECUTION_TOKEN_ALGORITHMS],
      });
      return payload as JWTPayload & ExecutionTokenGrant;
    } catch {
      return undefined;
    }
  }
}
