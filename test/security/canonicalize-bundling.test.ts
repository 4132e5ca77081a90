/**
 * Decision SE14 (docs/decisions.md): canonicalize is ESM-only (an "import"-only exports map), so
 * the CJS build must inline it or `require("@novaos/client-sdk")` fails.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import config from "../../tsdown.config.js";

describe("canonicalize in the CJS build", () => {
  it("cannot be required from node_modules (the reason it is bundled)", () => {
    expect(() => createRequire(import.meta.url)("canonicalize")).toThrow(
      expect.objectContaining({ code: "ERR_PACKAGE_PATH_NOT_EXPORTED" }),
    );
  });

  it("is bundled by the build", () => {
    const options = Array.isArray(config) ? config[0] : config;
    expect((options as { deps?: { alwaysBundle?: string[] } }).deps?.alwaysBundle).toContain("canonicalize");
  });
});
