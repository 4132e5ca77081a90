/**
 * Global setup of the package suite: builds dist/ once (as `make build`
 * does) and packs the tarball a fresh project installs, under one lock so
 * that concurrent runs in this checkout never build over each other.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../../..");

export default function setup(): void {
  mkdirSync(path.join(ROOT, ".cache/package"), { recursive: true });
  execFileSync(
    "flock",
    [
      ".cache/build.lock",
      "sh",
      "-c",
      "rm -rf dist .cache/package/*.tgz && node_modules/.bin/tsdown --log-level error && npm pack --silent --pack-destination .cache/package",
    ],
    { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] },
  );
}
