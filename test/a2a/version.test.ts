import { describe, expect, it } from "vitest";
import { VersionNotSupportedError } from "../../src/a2a/errors.js";
import { A2A_ABSENT_VERSION, A2A_PROTOCOL_VERSION, checkVersion, requestedVersion } from "../../src/a2a/version.js";

describe("A2A-Version", () => {
  it("reads the header case-insensitively from every header shape", () => {
    expect(requestedVersion(new Headers({ "a2a-version": "1.0" }))).toBe("1.0");
    expect(requestedVersion({ "A2A-VERSION": "1.0" })).toBe("1.0");
    expect(requestedVersion(new Map([["A2A-Version", "1.0.1"]]))).toBe("1.0.1");
    expect(requestedVersion([["a2A-vErsion", " 1.0 "]])).toBe("1.0");
  });

  it("treats an absent or empty header as 0.3", () => {
    expect(requestedVersion({})).toBe(A2A_ABSENT_VERSION);
    expect(requestedVersion(undefined)).toBe("0.3");
    expect(requestedVersion({ "A2A-Version": "  " })).toBe("0.3");
  });

  it.each(["1.0", "1.0.0", "1.0.1", "1.0.17"])("serves %s", (v) => {
    expect(checkVersion(v)).toBeUndefined();
  });

  it.each(["0.3", "0.3.0", "1.1", "2.0", "1", "abc", "1.0.x", ""])("refuses %j with -32009", (v) => {
    const error = checkVersion(v);
    expect(error).toBeInstanceOf(VersionNotSupportedError);
    expect(error?.code).toBe(-32009);
    expect(error?.message).toBe(`A2A version '${v}' is not supported by this handler. Expected version '1.0'.`);
  });

  it("sends 1.0", () => {
    expect(A2A_PROTOCOL_VERSION).toBe("1.0");
  });
});
