import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { A2A_SPEC_VERSION } from "../../src/a2a/version.js";
import { A2A_ERROR_SPEC_VERSION } from "../../src/errors/error-mapping.js";
import { loadPinnedSpec, readSpecLock, sha256Of } from "../../tools/spec-lock.js";

const root = resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
const tsx = join(root, "node_modules/.bin/tsx");
const scratch = mkdtempSync(join(tmpdir(), "novaos-lock-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the pinned A2A spec", () => {
  const lock = readSpecLock(join(root, "proto/a2a.lock"));

  it("names a tag, its commit and the proto's sha256, and the SDK's spec version constants follow the tag", () => {
    expect(lock.repository).toBe("https://github.com/a2aproject/A2A.git");
    expect(lock.path).toBe("specification/a2a.proto");
    expect(lock.tag).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(lock.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(lock.sha256).toMatch(/^[0-9a-f]{64}$/);
    // A bump edits the lock and these two together (README "Bumping the A2A spec").
    expect(A2A_SPEC_VERSION).toBe(lock.tag.slice(1));
    expect(A2A_ERROR_SPEC_VERSION).toBe(lock.tag.slice(1));
  });

  it("says to set A2A_SPEC_DIR when the pinned spec is not here and cannot be fetched, instead of a stack trace", () => {
    const offline = { ...lock, repository: join(scratch, "no-such-repository.git") };
    expect(() => loadPinnedSpec(join(scratch, "fresh-checkout"), offline, {})).toThrow(
      new RegExp(`the pinned A2A spec \\(${lock.tag}\\) is not here and could not be fetched .*set A2A_SPEC_DIR`),
    );
  });

  it("is the file the source provides (verified against the lock)", () => {
    const spec = loadPinnedSpec(root, lock);
    expect(sha256Of(spec.bytes)).toBe(lock.sha256);
  });

  it("is never committed: the repository holds no copy of a2a.proto", async () => {
    const { stdout } = await run("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root });
    expect(stdout.split("\n").filter((f) => f.endsWith("a2a.proto"))).toEqual([]);
  });

  it("refuses a tampered a2a.proto with a clear message, before generating anything", async () => {
    const dir = join(scratch, "tampered");
    cpSync(loadPinnedSpec(root, lock).origin, join(dir, "a2a.proto"));
    writeFileSync(join(dir, "a2a.proto"), `${readFileSync(join(dir, "a2a.proto"), "utf8")}\n// edited\n`);
    const failure = await run(tsx, ["tools/generate.ts", "--check"], {
      cwd: root,
      env: { ...process.env, A2A_SPEC_DIR: dir },
    }).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toMatch(
      /refusing .*a2a\.proto: sha256 [0-9a-f]{64} does not match proto\/a2a\.lock/,
    );
  });
});

describe("an additive spec bump, rehearsed with a fixture proto (generate --proto)", () => {
  it("builds: a new field of a kind the JSON plugin lacks costs that message its fast codec, loudly; the literals stay complete", async () => {
    const lockNow = readSpecLock(join(root, "proto/a2a.lock"));
    const pinned = readFileSync(loadPinnedSpec(root, lockNow).origin, "utf8");
    // Two new fields: a string (a kind the codecs handle) on Part, an int64 (one they do not) on Task.
    const bumped = pinned
      .replace("message Part {\n", "message Part {\n  string language = 90;\n")
      .replace("message Task {\n", "message Task {\n  int64 revision = 90;\n");
    expect(bumped).not.toBe(pinned);
    const tree = join(scratch, "bumped");
    mkdirSync(join(tree, "src/server"), { recursive: true });
    writeFileSync(join(tree, "a2a.proto"), bumped);
    const generated = await run(
      tsx,
      ["tools/generate.ts", "--proto", join(tree, "a2a.proto"), "--gen-dir", join(tree, "gen")],
      {
        cwd: root,
      },
    );
    // The warning names the messages that lost their codec and why; everything else keeps one.
    expect(generated.stderr).toContain("protoc-gen-a2a-json: WARNING:");
    expect(generated.stderr).toContain("lf.a2a.v1.Task: field revision (int64)");
    expect(generated.stderr).not.toMatch(/lf\.a2a\.v1\.Part:/);

    // The harness's message literals compile against the bumped gen/ and make complete messages.
    cpSync(join(root, "src/server/message-literals.ts"), join(tree, "src/server/message-literals.ts"));
    symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));
    writeFileSync(join(tree, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(
      join(tree, "tsconfig.json"),
      JSON.stringify({ extends: join(root, "tsconfig.json"), include: ["src/server/message-literals.ts"] }),
    );
    const compiled = await run(join(root, "node_modules/.bin/tsc"), ["--noEmit", "-p", join(tree, "tsconfig.json")], {
      cwd: tree,
    }).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    expect(compiled.stdout).toBe("");
    writeFileSync(
      join(tree, "probe.ts"),
      [
        'import { toBinary } from "@bufbuild/protobuf";',
        'import { TaskSchema } from "./gen/a2a_pb.js";',
        'import { fieldsNotNamed, newTask, textPart } from "./src/server/message-literals.js";',
        'const task = newTask("t", "c");',
        "toBinary(TaskSchema, task);",
        'console.log(JSON.stringify({ notNamed: fieldsNotNamed(), revision: String(task.revision), language: textPart("x").language }));',
      ].join("\n"),
    );
    const probe = await run(tsx, [join(tree, "probe.ts")], { cwd: tree });
    expect(JSON.parse(probe.stdout)).toEqual({
      notNamed: ["Task.revision", "Part.language"],
      revision: "0",
      language: "",
    });
  }, 240_000);
});

describe("make check-generated", () => {
  it("fails when a generated file differs from what the pinned specs produce", async () => {
    const copy = join(scratch, "gen");
    cpSync(join(root, "gen"), copy, { recursive: true });
    const file = join(copy, "a2a_routes.ts");
    writeFileSync(file, readFileSync(file, "utf8").replace('"POST"', '"PUT"'));
    const failure = await run(tsx, ["tools/generate.ts", "--check", "--gen-dir", copy], { cwd: root }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain("differs: gen/a2a_routes.ts");
  }, 240_000);

  it("marks every generated file as generated", async () => {
    const { stdout } = await run("git", ["ls-files", "--cached", "--others", "--exclude-standard", "gen"], {
      cwd: root,
    });
    const files = stdout.split("\n").filter(Boolean);
    expect(files.length).toBeGreaterThan(5);
    for (const f of files)
      expect(readFileSync(join(root, f), "utf8")).toMatch(/^\/\/ Code generated by `make generate`.*DO NOT EDIT\./);
  });
});
