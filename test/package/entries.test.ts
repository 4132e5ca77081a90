/**
 * The package's entries as published: package.json `exports` has one subpath
 * per entry folder (and nothing else), the build has each, and every entry
 * loads — with `import` on this Node, and with `require()` from a CommonJS
 * file on the lowest Node the `engines` field allows (require(esm), PK350).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENTRY_FOLDERS } from "../architecture/layers.js";
import { DIST, nodeBinary, consumerProject as project, ROOT } from "./support/package.js";

const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  engines: { node: string };
};
const SPECIFIERS = ["@novaos/client-sdk", ...ENTRY_FOLDERS.map((name) => `@novaos/client-sdk/${name}`)];

describe("package entries", () => {
  it("exports one subpath per entry folder, each built with its types", () => {
    expect(Object.keys(pkg.exports)).toEqual([".", ...ENTRY_FOLDERS.map((name) => `./${name}`), "./package.json"]);
    for (const name of ["index", ...ENTRY_FOLDERS]) {
      expect(existsSync(path.join(DIST, `${name}.js`)), `${name}.js`).toBe(true);
      expect(existsSync(path.join(DIST, `${name}.d.ts`)), `${name}.d.ts`).toBe(true);
    }
  });

  it("every entry loads from an ES module", async () => {
    await using consumer = await project({
      "package.json": '{ "type": "module" }',
      "load.js": `for (const s of ${JSON.stringify(SPECIFIERS)}) console.log(s, Object.keys(await import(s)).length > 0);`,
    });
    const out = execFileSync(process.execPath, ["load.js"], { cwd: consumer.dir, encoding: "utf8" });
    expect(out.trim().split("\n")).toEqual(SPECIFIERS.map((s) => `${s} true`));
  });

  it("every entry loads with require() on the lowest Node the engines field allows, without a warning", async () => {
    const lowest = /^\^?(\d+\.\d+\.\d+)/.exec(pkg.engines.node)?.[1];
    expect(lowest).toBe("20.19.0");
    await using consumer = await project({
      "package.json": '{ "type": "commonjs" }',
      "load.cjs": [
        `for (const s of ${JSON.stringify(SPECIFIERS)}) console.log(s, Object.keys(require(s)).length > 0);`,
        'const { Client } = require("@novaos/client-sdk");',
        'new Client({ baseUrl: "http://127.0.0.1:1" }).close().then(() => console.log("client ok"));',
      ].join("\n"),
    });
    const node = nodeBinary(lowest as string);
    expect(execFileSync(node, ["--version"], { encoding: "utf8" }).trim()).toBe(`v${lowest}`);
    const result = spawnSync(node, ["load.cjs"], { cwd: consumer.dir, encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.stdout.trim().split("\n")).toEqual([...SPECIFIERS.map((s) => `${s} true`), "client ok"]);
  }, 180_000);

  it("every runtime dependency is one the build imports", () => {
    // One file per module (decision PK360): the whole tree.
    const built = readdirSync(DIST, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".js"))
      .map((f) => readFileSync(path.join(DIST, f), "utf8"))
      .join("\n");
    const unused = Object.keys(pkg.dependencies).filter(
      (name) => !new RegExp(`from "${name}(/[^"]*)?"|import\\("${name}(/[^"]*)?"\\)`).test(built),
    );
    expect(unused).toEqual([]);
  });
});
