import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdir, mkdtemp, rename, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RecipientKeyUnavailableError, SealedEnvelopeFormatError } from "../../src/errors/novaos-errors.js";
import { b64uEncode } from "../../src/security/base64url.js";
import {
  AGENT_KEYS_DIR_ENV,
  DEFAULT_AGENT_KEYS_DIR,
  type KeyFileProblem,
  PodKeyring,
} from "../../src/security/pod-keyring.js";
import { RecipientKey } from "../../src/security/recipient-key.js";
import { type SecretDelivery, sealEnvelope } from "../../src/security/sealed-envelope.js";

const DELIVERY: SecretDelivery = { tenantId: "t", instanceId: "i", runId: "r", secretName: "API_KEY" };

interface KeyFile {
  key: RecipientKey;
  d: string;
  jwk: string;
}

function newKey(): KeyFile {
  const secret = randomBytes(32);
  const key = RecipientKey.fromSecretKey(secret);
  const d = b64uEncode(secret);
  return { key, d, jwk: JSON.stringify({ ...key.publicJwk(), d }) };
}

const seal = (k: KeyFile, value = "s3cr3t") => sealEnvelope(value, k.key.publicJwk(), DELIVERY);

describe("PodKeyring over a directory", () => {
  let dir: string;
  let clock: number;
  let problems: KeyFileProblem[];
  const keyring = (extra: Partial<ConstructorParameters<typeof PodKeyring>[0]> = {}) =>
    new PodKeyring({ directory: dir, now: () => clock, onKeyFileProblem: (p) => problems.push(p), ...extra });
  const put = (k: KeyFile, name = `${k.key.kid}.jwk`) => writeFile(join(dir, name), k.jwk);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "novaos-keyring-"));
    clock = 1_000;
    problems = [];
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("opens envelopes for every key in the directory, chosen by kid", async () => {
    const a = newKey();
    const b = newKey();
    await Promise.all([put(a), put(b)]);
    const ring = keyring();
    await expect(ring.open(seal(a, "for a"), DELIVERY)).resolves.toBe("for a");
    await expect(ring.open(seal(b, "for b"), DELIVERY)).resolves.toBe("for b");
    expect(ring.keyIds).toEqual([a.key.kid, b.key.kid].sort());
  });

  it("reads nothing until the first envelope needs opening", async () => {
    const a = newKey();
    await put(a);
    const ring = keyring();
    expect(ring.keyIds).toEqual([]);
    await rm(dir, { recursive: true });
    const error = await ring.open(seal(a), DELIVERY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecipientKeyUnavailableError);
    expect((error as Error).message).toMatch(/does not exist/);
  });

  it("re-checks a cached key after the interval: a removed key stops opening (revocation)", async () => {
    const a = newKey();
    const b = newKey();
    await Promise.all([put(a), put(b)]);
    const ring = keyring();
    await ring.open(seal(a), DELIVERY);
    await unlink(join(dir, `${a.key.kid}.jwk`));
    clock += 9;
    await expect(ring.open(seal(a), DELIVERY)).resolves.toBe("s3cr3t");
    clock += 1;
    const error = await ring.open(seal(a), DELIVERY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecipientKeyUnavailableError);
    expect((error as RecipientKeyUnavailableError).details).toMatchObject({ kid: a.key.kid, keyIds: [b.key.kid] });
    await expect(ring.open(seal(b), DELIVERY)).resolves.toBe("s3cr3t");
  });

  it("throttles directory reads: a flood of unknown kids costs one read per interval", async () => {
    const a = newKey();
    await Promise.all([put(a), writeFile(join(dir, "counter.jwk"), "not json")]);
    const ring = keyring();
    const forged = Array.from({ length: 100 }, () => seal(newKey()));
    for (const envelope of forged) {
      await expect(ring.open(envelope, DELIVERY)).rejects.toBeInstanceOf(RecipientKeyUnavailableError);
    }
    expect(problems).toHaveLength(1);
    const c = newKey();
    await put(c);
    await expect(ring.open(seal(c), DELIVERY)).rejects.toBeInstanceOf(RecipientKeyUnavailableError);
    clock += 10;
    await expect(ring.open(seal(c), DELIVERY)).resolves.toBe("s3cr3t");
    expect(problems).toHaveLength(2);
  });

  it("shares one read between concurrent first opens", async () => {
    const a = newKey();
    await Promise.all([put(a), writeFile(join(dir, "counter.jwk"), "not json")]);
    const ring = keyring();
    await Promise.all(Array.from({ length: 20 }, () => ring.open(seal(a), DELIVERY)));
    expect(problems).toHaveLength(1);
  });

  it("reload() reads at once, ignoring the throttle", async () => {
    const a = newKey();
    await writeFile(join(dir, "counter.jwk"), "not json");
    const ring = keyring();
    await ring.reload();
    await put(a);
    await ring.reload();
    expect(problems).toHaveLength(2);
    await expect(ring.open(seal(a), DELIVERY)).resolves.toBe("s3cr3t");
    expect(problems).toHaveLength(2);
  });

  it("follows a Kubernetes Secret volume: ..data links, atomic swaps, dotfiles ignored", async () => {
    const a = newKey();
    const b = newKey();
    const version1 = "..2024_01_01_00_00_00.000000001";
    await mkdir(join(dir, version1));
    await writeFile(join(dir, version1, `${a.key.kid}.jwk`), a.jwk);
    await symlink(version1, join(dir, "..data"));
    await symlink(`..data/${a.key.kid}.jwk`, join(dir, `${a.key.kid}.jwk`));
    await writeFile(join(dir, `.${b.key.kid}.jwk`), b.jwk);
    await mkdir(join(dir, "subdir.jwk"));
    await writeFile(join(dir, "README"), "not a key");
    const ring = keyring();
    await expect(ring.open(seal(a), DELIVERY)).resolves.toBe("s3cr3t");
    expect(ring.keyIds).toEqual([a.key.kid]);
    expect(problems).toEqual([]);

    // The kubelet writes the new version beside the old, swaps ..data atomically, then fixes the top-level links.
    const version2 = "..2024_01_02_00_00_00.000000002";
    await mkdir(join(dir, version2));
    await writeFile(join(dir, version2, `${b.key.kid}.jwk`), b.jwk);
    await symlink(version2, join(dir, "..data_tmp"));
    await rename(join(dir, "..data_tmp"), join(dir, "..data"));
    clock += 10;
    // Mid-swap the old link dangles: the key is gone, not a broken file.
    await expect(ring.open(seal(a), DELIVERY)).rejects.toBeInstanceOf(RecipientKeyUnavailableError);
    expect(problems).toEqual([]);
    await unlink(join(dir, `${a.key.kid}.jwk`));
    await symlink(`..data/${b.key.kid}.jwk`, join(dir, `${b.key.kid}.jwk`));
    await rm(join(dir, version1), { recursive: true });
    clock += 10;
    await expect(ring.open(seal(b), DELIVERY)).resolves.toBe("s3cr3t");
    expect(ring.keyIds).toEqual([b.key.kid]);
  });

  it("skips unusable key files, naming the file and never its content", async () => {
    const good = newKey();
    const misnamed = newKey();
    const mismatched = newKey();
    await Promise.all([
      put(good),
      writeFile(join(dir, "garbage.jwk"), "{not json"),
      writeFile(join(dir, "rsa.jwk"), JSON.stringify({ kty: "RSA", n: "x", e: "AQAB" })),
      put(misnamed, "some-other-name.jwk"),
      writeFile(
        join(dir, `${mismatched.key.kid}.jwk`),
        JSON.stringify({ ...JSON.parse(mismatched.jwk), x: good.key.publicJwk().x }),
      ),
      writeFile(join(dir, "huge.jwk"), "x".repeat(20_000)),
    ]);
    const ring = keyring();
    await expect(ring.open(seal(good), DELIVERY)).resolves.toBe("s3cr3t");
    expect(ring.keyIds).toEqual([good.key.kid]);
    expect(problems.map((p) => p.file).sort()).toEqual(
      ["garbage.jwk", "huge.jwk", "rsa.jwk", "some-other-name.jwk", `${mismatched.key.kid}.jwk`].sort(),
    );
    const text = JSON.stringify(problems);
    for (const k of [good, misnamed, mismatched]) expect(text).not.toContain(k.d);
  });

  it.skipIf(process.platform === "win32")(
    "refuses a key file its group or others may write, and says so when an envelope names it",
    async () => {
      const open = newKey();
      const shared = newKey();
      const group = newKey();
      await Promise.all([put(open), put(shared), put(group)]);
      await chmod(join(dir, `${open.key.kid}.jwk`), 0o644);
      await chmod(join(dir, `${shared.key.kid}.jwk`), 0o666);
      await chmod(join(dir, `${group.key.kid}.jwk`), 0o620);
      const ring = keyring();
      await expect(ring.open(seal(open), DELIVERY)).resolves.toBe("s3cr3t");
      expect(ring.keyIds).toEqual([open.key.kid]);
      const refused = ring.open(seal(shared), DELIVERY);
      await expect(refused).rejects.toBeInstanceOf(RecipientKeyUnavailableError);
      await expect(refused).rejects.toThrow(/key file was refused: writable by its group or others \(mode 0666\)/);
      expect(problems).toEqual(
        expect.arrayContaining([
          { file: `${shared.key.kid}.jwk`, reason: expect.stringContaining("mode 0666") },
          { file: `${group.key.kid}.jwk`, reason: expect.stringContaining("mode 0620") },
        ]),
      );
    },
  );

  it.skipIf(process.platform === "win32")("skips a FIFO named like a key file without waiting on it", async () => {
    const good = newKey();
    await put(good);
    execFileSync("mkfifo", [join(dir, `${newKey().key.kid}.jwk`)]);
    const ring = keyring();
    await expect(ring.open(seal(good), DELIVERY)).resolves.toBe("s3cr3t");
    expect(ring.keyIds).toEqual([good.key.kid]);
  });

  it("warns once per unusable file by default", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    try {
      await writeFile(join(dir, "garbage.jwk"), "{not json");
      const ring = new PodKeyring({ directory: dir, now: () => clock });
      await ring.reload();
      await ring.reload();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/garbage\.jwk: not JSON/);
    } finally {
      warn.mockRestore();
    }
  });

  it("refuses a malformed envelope before looking for a key", async () => {
    const ring = keyring();
    await expect(ring.open({ v: 1 }, DELIVERY)).rejects.toBeInstanceOf(SealedEnvelopeFormatError);
    expect(problems).toEqual([]);
  });

  it("never renders private key material", async () => {
    const a = newKey();
    await put(a);
    const ring = keyring();
    await ring.reload();
    for (const text of [inspect(ring, { depth: 10, showHidden: true }), JSON.stringify(ring), String(ring)]) {
      expect(text).not.toContain(a.d);
    }
    expect(JSON.parse(JSON.stringify(ring))).toEqual({ directory: dir, keyIds: [a.key.kid] });
    expect(inspect(ring)).toContain(a.key.kid);
  });
});

describe("PodKeyring configuration and fromKeys", () => {
  it("takes its directory from NOVAOS_AGENT_KEYS_DIR, else the default mount", () => {
    expect(new PodKeyring({ env: { [AGENT_KEYS_DIR_ENV]: "/mnt/keys" } }).directory).toBe("/mnt/keys");
    expect(new PodKeyring({ env: {} }).directory).toBe(DEFAULT_AGENT_KEYS_DIR);
  });

  it("fromKeys never touches the filesystem: a miss is final, reload keeps the keys", async () => {
    const a = newKey();
    const ring = PodKeyring.fromKeys([a.key]);
    expect(ring.directory).toBeUndefined();
    await expect(ring.open(seal(a), DELIVERY)).resolves.toBe("s3cr3t");
    const error = await ring.open(seal(newKey()), DELIVERY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecipientKeyUnavailableError);
    expect((error as Error).message).toMatch(/in memory/);
    await ring.reload();
    expect(ring.keyIds).toEqual([a.key.kid]);
  });
});
