/**
 * PodKeyring reads each key file through one open descriptor: the type,
 * size and mode it checks are those of the file it reads, never of whatever
 * the path named a moment before. Path-based `stat` and `readFile` are made
 * to fail here, so only descriptor-based reads can load a key.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { b64uEncode } from "../../src/security/base64url.js";
import { PodKeyring } from "../../src/security/pod-keyring.js";
import { RecipientKey } from "../../src/security/recipient-key.js";
import { type SecretDelivery, sealEnvelope } from "../../src/security/sealed-envelope.js";

const opened: string[] = [];

vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  const refuse = async (path: unknown) => {
    throw Object.assign(new Error(`path-based read of ${String(path)}`), { code: "EPERM" });
  };
  return {
    ...actual,
    stat: refuse,
    lstat: refuse,
    readFile: (path: unknown, ...rest: unknown[]) =>
      typeof path === "string" && path.endsWith(".jwk") ? refuse(path) : (actual.readFile as Function)(path, ...rest),
    open: (path: string, ...rest: unknown[]) => {
      opened.push(path);
      return (actual.open as Function)(path, ...rest);
    },
  };
});

const DELIVERY: SecretDelivery = { tenantId: "t", instanceId: "i", runId: "r", secretName: "API_KEY" };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "novaos-keyring-open-"));
  opened.length = 0;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it("checks and reads each key file through one open descriptor", async () => {
  const secret = randomBytes(32);
  const key = RecipientKey.fromSecretKey(secret);
  const file = join(dir, `${key.kid}.jwk`);
  await writeFile(file, JSON.stringify({ ...key.publicJwk(), d: b64uEncode(secret) }), { mode: 0o600 });
  const ring = new PodKeyring({ directory: dir, onKeyFileProblem: (p) => expect.fail(`${p.file}: ${p.reason}`) });
  const envelope = sealEnvelope("s3cr3t", key.publicJwk(), DELIVERY);
  await expect(ring.open(envelope, DELIVERY)).resolves.toBe("s3cr3t");
  expect(opened).toEqual([file]);
});
