/**
 * canonicalize is ESM-only (an "import"-only exports map), so the package has
 * no CommonJS build to bundle it into: the ESM build imports it, and a
 * CommonJS caller's `require()` loads that build as an ES module (decision
 * PK350; test/package/entries.test.ts loads every entry with require() on the
 * lowest Node the engines field allows).
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import config from "../../tsdown.config.js";

describe("canonicalize in the build", () => {
  it("cannot be required from node_modules (why the package is one ESM build)", () => {
    expect(() => createRequire(import.meta.url)("canonicalize")).toThrow(
      expect.objectContaining({ code: "ERR_PACKAGE_PATH_NOT_EXPORTED" }),
    );
  });

  it("is imported by the ESM build, not bundled into a CommonJS twin", () => {
    const options = Array.isArray(config) ? config : [config];
    expect(options.flatMap((o) => (o as { format?: unknown }).format ?? "esm")).not.toContain("cjs");
    expect(
      options.flatMap((o) => (o as { deps?: { alwaysBundle?: string[] } }).deps?.alwaysBundle ?? []),
    ).not.toContain("canonicalize");
  });
});
