/**
 * The pinned A2A spec: reading `proto/a2a.lock`, finding the spec source and
 * refusing any `a2a.proto` whose sha256 differs from the lock.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

export interface SpecLock {
  repository: string;
  tag: string;
  commit: string;
  /** Path of a2a.proto inside the upstream repository. */
  path: string;
  sha256: string;
}

const LOCK_KEYS = ["repository", "tag", "commit", "path", "sha256"] as const;

export function readSpecLock(file: string): SpecLock {
  const fields = new Map<string, string>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const [key, value, ...rest] = trimmed.split(/\s+/);
    if (value === undefined || rest.length > 0) {
      throw new Error(`${file}: expected "<key> <value>", got "${trimmed}"`);
    }
    fields.set(key as string, value);
  }
  for (const key of LOCK_KEYS) {
    if (!fields.get(key)) throw new Error(`${file}: missing "${key}"`);
  }
  return Object.fromEntries(LOCK_KEYS.map((k) => [k, fields.get(k)])) as unknown as SpecLock;
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Throws unless `bytes` is exactly the file the lock pins. */
export function verifyAgainstLock(bytes: Uint8Array, lock: SpecLock, origin: string): void {
  const actual = sha256Of(bytes);
  if (actual !== lock.sha256) {
    throw new Error(
      `refusing ${origin}: sha256 ${actual} does not match proto/a2a.lock (${lock.tag}, sha256 ${lock.sha256}). ` +
        "Point A2A_SPEC_DIR at the pinned spec, or bump the lock deliberately.",
    );
  }
}

export interface PinnedSpec {
  /** The verified a2a.proto. */
  bytes: Uint8Array;
  origin: string;
  /** The spec text of the same tag, when the source has it. */
  specificationFile: string | undefined;
}

/**
 * Reads a2a.proto from `A2A_SPEC_DIR`, else from the default shared copy when
 * it exists, else by cloning the locked tag (network needed only then; without
 * it, the error says to set `A2A_SPEC_DIR`).
 */
export function loadPinnedSpec(root: string, lock: SpecLock, env = process.env): PinnedSpec {
  if (env.A2A_SPEC_DIR) return fromDir(resolve(root, env.A2A_SPEC_DIR), lock);
  const shared = resolve(root, "../shared/spec/a2a", lock.tag);
  if (existsSync(join(shared, "a2a.proto"))) return fromDir(shared, lock);
  return fromUpstream(root, lock);
}

function fromDir(dir: string, lock: SpecLock): PinnedSpec {
  const file = join(dir, "a2a.proto");
  if (!existsSync(file)) throw new Error(`A2A spec directory ${dir} has no a2a.proto`);
  const bytes = readFileSync(file);
  verifyAgainstLock(bytes, lock, file);
  const text = join(dir, "specification.md");
  return { bytes, origin: file, specificationFile: existsSync(text) ? text : undefined };
}

function fromUpstream(root: string, lock: SpecLock): PinnedSpec {
  const checkout = join(root, ".cache", `a2a-${lock.tag}`);
  if (!existsSync(join(checkout, ".git"))) {
    mkdirSync(checkout, { recursive: true });
    try {
      execFileSync("git", ["clone", "--quiet", "--depth", "1", "--branch", lock.tag, lock.repository, checkout], {
        stdio: ["ignore", "ignore", "pipe"],
      });
    } catch (error) {
      rmSync(checkout, { recursive: true, force: true });
      const said = String((error as { stderr?: unknown }).stderr ?? "").trim();
      throw new Error(
        `the pinned A2A spec (${lock.tag}) is not here and could not be fetched from ${lock.repository}` +
          `${said ? ` (git: ${said.split("\n").at(-1)})` : ""}. Without network, set A2A_SPEC_DIR to a ` +
          `directory holding a2a.proto (and specification.md) of ${lock.tag}.`,
      );
    }
  }
  const head = execFileSync("git", ["-C", checkout, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
  if (head !== lock.commit) {
    throw new Error(`refusing ${lock.repository}@${lock.tag}: commit ${head}, lock says ${lock.commit}`);
  }
  const bytes = readFileSync(join(checkout, lock.path));
  verifyAgainstLock(bytes, lock, `${lock.repository}@${lock.tag}:${lock.path}`);
  const text = join(checkout, "docs", "specification.md");
  return { bytes, origin: join(checkout, lock.path), specificationFile: existsSync(text) ? text : undefined };
}
