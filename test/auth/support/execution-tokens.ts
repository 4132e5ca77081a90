/**
 * A NovaOS gateway's token side for tests: an RS256 key published on a local
 * JWKS endpoint (a real socket), execution tokens signed with it (or forged:
 * another key under the same kid, `alg: none`, expired, another issuer or
 * audience), and the verifier an agent checks them with.
 */
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { JwksTokenVerifier } from "../../../src/security/token-verifier.js";
import { type JwksServer, startJwksServer } from "../../security/jwks-server.js";

export const ISSUER = "https://iam.novaos.example/tenants";
export const KID = "gateway-1";

/** The claims of a run of `user` in `tenant`. */
export function runClaims(tenant: string, user: string, run = `run-${user}`): JWTPayload {
  return { tenant_id: tenant, user_id: user, run_id: run, instance_id: "instance-1", agent_id: "agent-1" };
}

export interface TokenOptions {
  readonly iss?: string;
  readonly aud?: string;
  /** Seconds since the epoch. */
  readonly exp?: number;
}

export interface Gateway extends AsyncDisposable {
  readonly jwks: JwksServer;
  /** A verifier of this gateway's tokens (what `auth: { mode: "executionToken" }` takes). */
  verifier(): JwksTokenVerifier;
  /** A token this gateway issued. */
  sign(claims: JWTPayload, options?: TokenOptions): Promise<string>;
  /** A well-formed token under this gateway's kid, signed by a key it never published. */
  forge(claims: JWTPayload): Promise<string>;
  /** The same claims, unsigned (`alg: none`). */
  unsigned(claims: JWTPayload): string;
}

async function signWith(key: CryptoKey, claims: JWTPayload, options: TokenOptions = {}): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", kid: KID, typ: "JWT" })
    .setIssuer(options.iss ?? ISSUER)
    .setAudience(options.aud ?? "acp-agent")
    .setIssuedAt()
    .setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 600)
    .sign(key);
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

export async function startGateway(): Promise<Gateway> {
  const real = await generateKeyPair("RS256", { extractable: true });
  const other = await generateKeyPair("RS256");
  const jwks = await startJwksServer({
    keys: [{ ...(await exportJWK(real.publicKey)), kid: KID, alg: "RS256", use: "sig" }],
  });
  return {
    jwks,
    verifier: () => new JwksTokenVerifier({ gatewayUrl: jwks.url, issuer: ISSUER }),
    sign: (claims, options) => signWith(real.privateKey, claims, options),
    forge: (claims) => signWith(other.privateKey, claims),
    unsigned: (claims) => {
      const now = Math.floor(Date.now() / 1000);
      return `${b64({ alg: "none", kid: KID, typ: "JWT" })}.${b64({ ...claims, iss: ISSUER, aud: "acp-agent", iat: now, exp: now + 600 })}.`;
    },
    [Symbol.asyncDispose]: () => jwks.close(),
  };
}
