import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { NovaOSValidationError } from "../../src/errors/novaos-errors.js";
import { Attachment } from "../../src/platform/attachment.js";

describe("Attachment", () => {
  it("sends inline bytes base64-encoded and omits unset fields", () => {
    const bytes = new TextEncoder().encode("hello");
    expect(new Attachment({ type: "text/plain", data: bytes, name: "a.txt" }).toWire()).toEqual({
      type: "text/plain",
      data: "aGVsbG8=",
      name: "a.txt",
    });
    expect(new Attachment({ type: "image/png", url: "https://files.example/x.png" }).toWire()).toEqual({
      type: "image/png",
      url: "https://files.example/x.png",
    });
  });

  it("accepts an ArrayBuffer and copies the bytes it was given", () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const attachment = new Attachment({ type: "application/octet-stream", data: bytes });
    bytes[0] = 9;
    expect(attachment.data).toEqual(new Uint8Array([1, 2, 3]));
    expect(new Attachment({ type: "x", data: new Uint8Array([7]).buffer }).toWire().data).toBe("Bw==");
  });

  it.each([
    [{ type: "text/plain" }, "attachments.url"],
    [{ type: "text/plain", url: "https://x.example/a", data: new Uint8Array(1) }, "attachments.url"],
    [{ type: "text/plain", url: "relative/path.txt" }, "attachments.url"],
    [{ type: "", url: "https://x.example/a" }, "attachments.type"],
    [{ type: "t", url: "https://x.example/a", name: "../etc/passwd" }, "attachments.name"],
    [{ type: "t", url: "https://x.example/a", name: "dir\\file" }, "attachments.name"],
    [{ type: "t", url: "https://x.example/a", name: ".." }, "attachments.name"],
    [{ type: "t", url: "https://x.example/a", name: "" }, "attachments.name"],
    [{ type: "t", data: "aGVsbG8=" as unknown as Uint8Array }, "attachments.data"],
  ])("refuses %j on construction", (init, field) => {
    let thrown: unknown;
    try {
      new Attachment(init);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NovaOSValidationError);
    expect((thrown as NovaOSValidationError).field).toBe(field);
  });

  it("never prints the bytes", () => {
    const attachment = new Attachment({
      type: "text/plain",
      data: new TextEncoder().encode("secret-bytes"),
      name: "s",
    });
    expect(inspect(attachment)).toBe('Attachment { type: "text/plain", data: [12 bytes], name: "s" }');
    expect(JSON.stringify(attachment)).not.toContain(Buffer.from("secret-bytes").toString("base64"));
  });
});
