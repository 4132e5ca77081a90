/**
 * `keys generate`: a pod's X25519 key (what sealed secrets are sealed to) or,
 * with `--signing`, a P-256 key for `card sign`. The private JWK goes to
 * `{dir}/{kid}.jwk` with mode 0600 (the file layout `PodKeyring` reads); the
 * public half is printed. An existing file is never overwritten.
 */
import { generateKeyPairSync } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "commander";
import { calculateJwkThumbprint, type JWK } from "jose";
import { RecipientKey } from "../../security/index.js";
import { CliUsageError } from "../cli-errors.js";
import type { CliIo } from "../io.js";
import { createOutput } from "../output.js";

/** Owner read/write only: the file holds a private key. */
export const PRIVATE_KEY_FILE_MODE = 0o600;

export async function readJwkFile(path: string): Promise<JWK> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new CliUsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const jwk = JSON.parse(text) as unknown;
    if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk) || typeof (jwk as JWK).kty !== "string") {
      throw new Error("not a JWK");
    }
    return jwk as JWK;
  } catch (error) {
    throw new CliUsageError(`${path} is not a JWK: ${(error as Error).message}`);
  }
}

/** The JWS algorithm a signing key implies. */
export function signingAlgorithmOf(jwk: JWK): string {
  if (jwk.kty === "EC") {
    const alg = { "P-256": "ES256", "P-384": "ES384", "P-521": "ES512" }[jwk.crv ?? ""];
    if (alg) return alg;
  }
  if (jwk.kty === "OKP" && jwk.crv === "Ed25519") return "EdDSA";
  if (jwk.kty === "RSA") return "RS256";
  throw new CliUsageError(`cannot tell the algorithm of a ${jwk.kty} ${jwk.crv ?? ""} key: pass --alg`);
}

async function writePrivateJwk(dir: string, kid: string, jwk: JWK): Promise<string> {
  const file = join(dir, `${kid}.jwk`);
  try {
    await writeFile(file, `${JSON.stringify(jwk)}\n`, { mode: PRIVATE_KEY_FILE_MODE, flag: "wx" });
  } catch (error) {
    throw new CliUsageError(`cannot write ${file}: ${(error as Error).message}`);
  }
  return file;
}

/** A pod key: X25519, its kid the RFC 7638 thumbprint (checked by `RecipientKey.fromJwk`). */
async function podKey(dir: string): Promise<{ kid: string; file: string; publicJwk: JWK }> {
  const { privateKey } = generateKeyPairSync("x25519");
  const { kty, crv, d, x } = privateKey.export({ format: "jwk" });
  const kid = RecipientKey.fromJwk({ kty, crv, d, x }).kid;
  const file = await writePrivateJwk(dir, kid, { kty, crv, d, x, kid });
  return { kid, file, publicJwk: { kty, crv, x, kid } };
}

async function signingKey(dir: string): Promise<{ kid: string; file: string; publicJwk: JWK }> {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const { kty, crv, d, x, y } = privateKey.export({ format: "jwk" });
  const publicJwk: JWK = { kty, crv, x, y };
  const kid = await calculateJwkThumbprint(publicJwk);
  const file = await writePrivateJwk(dir, kid, { ...publicJwk, d, kid, alg: "ES256", use: "sig" });
  return { kid, file, publicJwk: { ...publicJwk, kid, alg: "ES256", use: "sig" } };
}

export function registerKeys(program: Command, io: CliIo): void {
  program
    .command("keys")
    .description("key material for sealed secrets and card signing")
    .command("generate")
    .description(
      "generate a pod X25519 key (or --signing: a P-256 card-signing key); private part to DIR/{kid}.jwk (0600)",
    )
    .option("--dir <dir>", "where to write the private JWK", ".")
    .option("--signing", "a card-signing key (ES256) instead of a pod key; prints its public JWKS")
    .action(async (options: { dir: string; signing?: boolean }, command: Command) => {
      const out = createOutput(io, command.optsWithGlobals());
      const key = options.signing ? await signingKey(options.dir) : await podKey(options.dir);
      const published = options.signing ? { keys: [key.publicJwk] } : key.publicJwk;
      if (out.json) {
        out.data({ kid: key.kid, privateKeyFile: key.file, [options.signing ? "jwks" : "publicJwk"]: published });
        return;
      }
      out.note(`private key written to ${key.file} (mode 600)`);
      out.line(JSON.stringify(published, null, 2));
    });
}
