import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { A2AExtension, ExtensionRegistry } from "../../src/a2a/extensions.js";
import {
  RecipientKeyUnavailableError,
  SealedEnvelopeError,
  SealedEnvelopeFormatError,
  SecretNotDeliveredError,
} from "../../src/errors/novaos-errors.js";
import { PodKeyring } from "../../src/security/pod-keyring.js";
import { RecipientKey } from "../../src/security/recipient-key.js";
import { SEALED_ENVELOPE_SUITE, sealEnvelope } from "../../src/security/sealed-envelope.js";
import { SealedUserContext } from "../../src/security/sealed-user-context.js";
import { USER_CONTEXT_EXTENSION_URI, UserContextExtension } from "../../src/security/user-context-extension.js";
import type { SecretSource } from "../../src/server/secret-source.js";

const BINDING = { tenantId: "t-1", instanceId: "i-1", runId: "r-1" };
const key = RecipientKey.generate();
const sealFor = (name: string, value: string, binding = BINDING) =>
  sealEnvelope(value, key.publicJwk(), { ...binding, secretName: name });

describe("UserContextExtension", () => {
  it("is the user-context/v1 extension, advertising its suite and no key ids", () => {
    const extension = new UserContextExtension({ keyring: PodKeyring.fromKeys([key]) });
    expect(USER_CONTEXT_EXTENSION_URI).toBe("novaos.platform/extensions/user-context/v1");
    const declaration = extension.declaration();
    expect(declaration).toMatchObject({ uri: USER_CONTEXT_EXTENSION_URI, required: false });
    expect(declaration.params).toEqual({ suites: [SEALED_ENVELOPE_SUITE] });
    expect(JSON.stringify(declaration.params)).not.toContain(key.kid);
    expect(new UserContextExtension({ required: true }).required).toBe(true);
    expect(extension.requestValue()).toBeUndefined();
  });

  it("defaults to a lazy PodKeyring over the mounted directory", () => {
    expect(new UserContextExtension().keyring).toBeInstanceOf(PodKeyring);
    expect(new UserContextExtension().keyring.keyIds).toEqual([]);
  });

  it("reads no payload as no secrets", async () => {
    const extension = new UserContextExtension({ keyring: PodKeyring.fromKeys([key]) });
    for (const value of [undefined, null]) {
      const context = extension.readValue(value);
      expect(context.secretNames).toEqual([]);
      await expect(context.open("API_KEY", BINDING)).rejects.toBeInstanceOf(SecretNotDeliveredError);
    }
  });

  it.each([
    ["a string", "secrets"],
    ["an array", [1]],
    ["no secrets member", {}],
    ["secrets as an array", { secrets: [] }],
    ["secrets as a string", { secrets: "x" }],
    ["an envelope that is not an object", { secrets: { API_KEY: "sealed" } }],
  ])("refuses a payload that is %s", (_, value) => {
    const extension = new UserContextExtension({ keyring: PodKeyring.fromKeys([key]) });
    expect(() => extension.readValue(value as never)).toThrow(SealedEnvelopeFormatError);
  });

  it("lists delivered names sorted and ignores sibling members (v1 may grow them)", () => {
    const extension = new UserContextExtension({ keyring: PodKeyring.fromKeys([key]) });
    const context = extension.readValue({
      secrets: { SMTP_PASSWORD: sealFor("SMTP_PASSWORD", "p"), API_KEY: sealFor("API_KEY", "k") },
      mcp_gateway_token: "future",
    } as never);
    expect(context.secretNames).toEqual(["API_KEY", "SMTP_PASSWORD"]);
  });
});

describe("SealedUserContext", () => {
  it("opens lazily, every time, and binds the value to its name and run", async () => {
    const keyring = PodKeyring.fromKeys([key]);
    const open = vi.spyOn(keyring, "open");
    const context = new SealedUserContext(
      { API_KEY: sealFor("API_KEY", "k-123"), SMTP_PASSWORD: sealFor("API_KEY", "moved") },
      keyring,
    );
    expect(open).not.toHaveBeenCalled();
    await expect(context.open("API_KEY", BINDING)).resolves.toBe("k-123");
    await expect(context.open("API_KEY", BINDING)).resolves.toBe("k-123");
    expect(open).toHaveBeenCalledTimes(2);
    await expect(context.open("API_KEY", { ...BINDING, runId: "r-2" })).rejects.toThrow(SealedEnvelopeError);
    // An envelope moved from API_KEY to SMTP_PASSWORD does not open under its new name.
    const moved = await context.open("SMTP_PASSWORD", BINDING).catch((e: unknown) => e);
    expect(moved).toBeInstanceOf(SealedEnvelopeError);
    expect(moved).not.toBeInstanceOf(SealedEnvelopeFormatError);
  });

  it("names what was delivered when a name is missing, and reports a key it does not hold", async () => {
    const context = new SealedUserContext(
      {
        A: sealFor("A", "a"),
        B: sealEnvelope("b", RecipientKey.generate().publicJwk(), { ...BINDING, secretName: "B" }),
      },
      PodKeyring.fromKeys([key]),
    );
    const missing = (await context.open("C", BINDING).catch((e: unknown) => e)) as SecretNotDeliveredError;
    expect(missing).toBeInstanceOf(SecretNotDeliveredError);
    expect(missing).not.toBeInstanceOf(SealedEnvelopeError);
    expect(missing.details).toEqual({ name: "C", delivered: ["A", "B"] });
    await expect(context.open("B", BINDING)).rejects.toBeInstanceOf(RecipientKeyUnavailableError);
  });

  it("renders secret names only", () => {
    const envelope = sealFor("API_KEY", "k-123");
    const context = new SealedUserContext({ API_KEY: envelope }, PodKeyring.fromKeys([key]));
    for (const text of [inspect(context, { depth: 10, showHidden: true }), JSON.stringify(context), `${context}`]) {
      expect(text).not.toContain(envelope.ct);
      expect(text).not.toContain(envelope.epk);
    }
    expect(JSON.parse(JSON.stringify(context))).toEqual({ secretNames: ["API_KEY"] });
    expect(inspect(context)).toBe('SealedUserContext { secretNames: ["API_KEY"] }');
  });
});

describe("UserContextExtension as the builder's SecretSource", () => {
  const extension = new UserContextExtension({ keyring: PodKeyring.fromKeys([key]) });
  const source: SecretSource = extension;
  const registry = new ExtensionRegistry([extension]);
  const activate = (payload: unknown) =>
    registry.activate(
      { "A2A-Extensions": USER_CONTEXT_EXTENSION_URI },
      { [USER_CONTEXT_EXTENSION_URI]: payload as never },
    );
  const call = (payload: unknown) => ({ ...BINDING, activation: activate(payload) });

  it("returns a delivered secret, and undefined for one not delivered or an extension not activated", async () => {
    const payload = { secrets: { API_KEY: sealFor("API_KEY", "k-123") } };
    await expect(source.getSecret("API_KEY", call(payload))).resolves.toBe("k-123");
    await expect(source.getSecret("OTHER", call(payload))).resolves.toBeUndefined();
    expect(source.deliveredNames(call(payload))).toEqual(["API_KEY"]);
    const inactive = { ...BINDING, activation: registry.activate({}, { [USER_CONTEXT_EXTENSION_URI]: payload }) };
    await expect(source.getSecret("API_KEY", inactive)).resolves.toBeUndefined();
    expect(source.deliveredNames(inactive)).toEqual([]);
  });

  it("throws, never returns undefined, for a delivered secret that fails to open or a malformed payload", async () => {
    const replayed = { secrets: { API_KEY: sealFor("API_KEY", "k", { ...BINDING, runId: "r-0" }) } };
    await expect(source.getSecret("API_KEY", call(replayed))).rejects.toThrow(SealedEnvelopeError);
    await expect(source.getSecret("API_KEY", call({ wrong: true }))).rejects.toThrow(SealedEnvelopeFormatError);
    expect(source.deliveredNames(call({ wrong: true }))).toEqual([]);
  });

  it("sees nothing through a registry where another extension holds the URI", async () => {
    const other = new ExtensionRegistry([new A2AExtension({ uri: USER_CONTEXT_EXTENSION_URI })]);
    const activation = other.activate(
      { "A2A-Extensions": USER_CONTEXT_EXTENSION_URI },
      { [USER_CONTEXT_EXTENSION_URI]: { secrets: { API_KEY: sealFor("API_KEY", "k") } } },
    );
    await expect(source.getSecret("API_KEY", { ...BINDING, activation })).resolves.toBeUndefined();
  });
});
