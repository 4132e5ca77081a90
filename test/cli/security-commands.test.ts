/**
 * `keys generate`, `seal`, `card sign` and `card verify` over src/security:
 * a pod key the keyring loads (file mode 0600), a secret only that key opens,
 * and a card signature that verifies against the published JWKS until the card
 * is changed.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PodKeyring } from "../../src/security/pod-keyring.js";
import { startJwksServer } from "../security/jwks-server.js";
import { cli, jsonLines } from "./support/run-cli.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "novaos-a2a-keys-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const DELIVERY = ["--tenant", "acme", "--instance", "inst-1", "--run", "run-9", "--name", "SMTP_PASSWORD"];

describe("keys generate and seal", () => {
  it("writes the pod key to {kid}.jwk with mode 0600, which PodKeyring loads and opens sealed secrets with", async () => {
    const generated = await cli(["--json", "keys", "generate", "--dir", dir]);
    expect(generated.code).toBe(0);
    const { kid, privateKeyFile, publicJwk } = jsonLines(generated.stdout)[0] as {
      kid: string;
      privateKeyFile: string;
      publicJwk: { kty: string; crv: string; x: string; kid: string; d?: string };
    };
    expect(privateKeyFile).toBe(join(dir, `${kid}.jwk`));
    expect((await stat(privateKeyFile)).mode & 0o777).toBe(0o600);
    expect(publicJwk).toMatchObject({ kty: "OKP", crv: "X25519", kid });
    expect(publicJwk.d).toBeUndefined();

    const recipient = join(dir, "recipient.json");
    await writeFile(recipient, JSON.stringify(publicJwk));
    const sealed = await cli(["seal", "--to", recipient, ...DELIVERY], { stdin: "hunter2\n" });
    expect(sealed.code).toBe(0);
    const envelope = JSON.parse(sealed.stdout) as { kid: string };
    expect(envelope.kid).toBe(kid);
    expect(sealed.stdout).not.toContain("hunter2");

    const keyring = new PodKeyring({ directory: dir, onKeyFileProblem: () => undefined });
    const delivery = { tenantId: "acme", instanceId: "inst-1", runId: "run-9", secretName: "SMTP_PASSWORD" };
    expect(await keyring.open(envelope, delivery)).toBe("hunter2");
    await expect(keyring.open(envelope, { ...delivery, runId: "run-10" })).rejects.toThrow();
  });

  it("never overwrites an existing key file, and refuses to seal nothing", async () => {
    const generated = jsonLines((await cli(["--json", "keys", "generate", "--dir", dir])).stdout)[0] as { kid: string };
    await writeFile(join(dir, "other.jwk"), "{}");
    const nothing = await cli(["seal", "--to", join(dir, `${generated.kid}.jwk`), ...DELIVERY], { stdin: "" });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("nothing to seal");
  });
});

describe("card sign and verify", () => {
  it("signs a card with a generated P-256 key; verify passes against its JWKS and fails once the card changes", async () => {
    const generated = jsonLines((await cli(["--json", "keys", "generate", "--signing", "--dir", dir])).stdout)[0] as {
      privateKeyFile: string;
      jwks: { keys: object[] };
    };
    await using jwks = await startJwksServer(generated.jwks as never);
    const cardFile = join(dir, "card.json");
    await writeFile(cardFile, JSON.stringify({ name: "signed-agent", description: "d", version: "1.0.0" }));
    const signed = await cli(["card", "sign", cardFile, "--key", generated.privateKeyFile]);
    expect(signed.code).toBe(0);
    const signedFile = join(dir, "signed.json");
    await writeFile(signedFile, signed.stdout);
    expect(JSON.parse(signed.stdout).signatures).toHaveLength(1);

    const verified = await cli(["card", "verify", signedFile, "--jwks", jwks.url]);
    expect(verified).toMatchObject({ code: 0 });
    expect(verified.stdout).toContain("signature verified");

    const tampered = { ...JSON.parse(await readFile(signedFile, "utf8")), description: "changed" };
    const tamperedFile = join(dir, "tampered.json");
    await writeFile(tamperedFile, JSON.stringify(tampered));
    const refused = await cli(["card", "verify", tamperedFile, "--jwks", jwks.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^novaos-a2a: signature not verified: No agent card signature verifies/);
  });
});
