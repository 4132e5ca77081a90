/**
 * The repository explains itself: docs, source comments, tests, bench, tools,
 * examples, protos and OpenAPI files cite only what is inside it. A design
 * note, an issue tracker or another SDK's bug number is out of a reader's
 * reach, so what it said is written out where it is needed (a peer's
 * behaviour as a sentence, the harness rules in docs/architecture.md).
 * Allowed: sections of the pinned A2A spec ("spec §3.1.6", "§10.6"), RFC
 * sections, "harness rule N" for a rule docs/architecture.md lists, and the
 * pinned spec's lookup path `../shared/spec/` (an input named in
 * proto/a2a.lock, never a citation).
 */
import { existsSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder, headingSlug, headings, ROOT, readRepoFile, section } from "./support/repo-files.js";

const SCANNED = ["README.md", "docs", "src", "test", "bench", "tools", "examples", "proto", "openapi"];
const TEXT_FILE = /\.(md|ts|mts|mjs|js|proto|yaml)$/;
/** The checkers hold the bad references they must recognise, as test data. */
const CHECKERS = new Set(["test/repo/references.test.ts", "test/repo/decisions.test.ts"]);
/** Folders at the root that paths in the text may start with. */
const ROOT_FOLDERS = "src|test|docs|bench|tools|examples|proto|openapi|gen";
/** Markdown names allowed without a file of that name here: the pinned spec's text (see tools/spec-lock.ts). */
const SPEC_FILES = new Set(["specification.md"]);

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly why: string;
}

/** What the repository defines, that references resolve against. */
interface Repository {
  /** Whether a root-relative path names a file or folder. */
  exists(path: string): boolean;
  /** The anchors of a Markdown file's headings. */
  anchors(path: string): ReadonlySet<string>;
  /** Base names of the repository's Markdown files. */
  readonly markdownNames: ReadonlySet<string>;
  /** How many harness rules docs/architecture.md lists. */
  readonly harnessRules: number;
}

const OUTSIDE: readonly [RegExp, string][] = [
  [/\.\.\/shared(?!\/spec\/)/g, "a path outside the repository"],
  [/\bpeers\.md\b|\bARCHITECTURE\.md\b/g, "a design note outside the repository"],
  [/\binventor(?:y|ies)\b/gi, "the design inventory outside the repository"],
  [/\bseeds?\/|\bthe seed\b|\bseed line\b/gi, "the seed outside the repository"],
  [/\bADR\b|\bKB-\d+/g, "a platform record outside the repository"],
  [
    /(?:\b(?:js|py|go|java|rs)|\ba2a(?:-[a-z]+)?|\bA2A|\bPR|\bissue)\s?#\d+/gi,
    "an issue number instead of what it says",
  ],
  [/\b[Ii]ssues? \d+\b/g, "an issue instead of what it says"],
  [/§\s*(?=[^\d\s])/g, "a section sign not followed by a section number"],
];

/** Everything in `text` that points outside the repository or at nothing in it. */
/** MCP JSON-RPC method names, which look like paths under `tools/`. */
const MCP_METHODS: ReadonlySet<string> = new Set(["tools/list", "tools/call"]);

function findBadReferences(file: string, text: string, repo: Repository): Finding[] {
  const findings: Finding[] = [];
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  const report = (index: number, found: string, why: string) =>
    findings.push({ file, line: lineOf(index), text: found, why });

  for (const [pattern, why] of OUTSIDE) {
    for (const m of text.matchAll(pattern)) report(m.index, m[0], why);
  }

  // "rule N" names a harness rule, and says so.
  for (const m of text.matchAll(/\brules?\s+(\d+(?:\s*(?:[–-]|,|and)\s*\d+)*)/gi)) {
    const before = text
      .slice(Math.max(0, m.index - 40), m.index)
      .replace(/[\s*/#]+/g, " ")
      .trimEnd();
    if (!/\bharness$/i.test(before)) report(m.index, m[0], 'a rule number without "harness rule"');
    else {
      for (const n of (m[1] as string).match(/\d+/g) ?? []) {
        if (Number(n) < 1 || Number(n) > repo.harnessRules) report(m.index, m[0], "no such harness rule");
      }
    }
  }

  // Paths into the repository's folders name something that exists.
  for (const m of text.matchAll(new RegExp(`(?<![\\w.@/-])(?:${ROOT_FOLDERS})/[\\w./-]*[\\w/]`, "g"))) {
    const path = m[0].replace(/\/$/, "");
    if (MCP_METHODS.has(path)) continue;
    if (!repo.exists(path) && !(path.endsWith(".js") && repo.exists(path.replace(/\.js$/, ".ts")))) {
      report(m.index, m[0], "no such file in the repository");
    }
  }

  // A Markdown file named on its own is one of ours.
  for (const m of text.matchAll(/(?<![\w./-])[\w-]+\.md\b/g)) {
    if (!repo.markdownNames.has(m[0]) && !SPEC_FILES.has(m[0])) report(m.index, m[0], "no such Markdown file here");
  }

  // Markdown links resolve: the file exists, and so does the heading an anchor names.
  if (file.endsWith(".md")) {
    const prose = text.replace(/^\s*(```|~~~)[\s\S]*?^\s*\1/gm, (block) => block.replace(/[^\n]/g, " "));
    for (const m of prose.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
      const target = m[1] as string;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path = "", anchor] = target.split("#");
      const resolved = path === "" ? file : posix.normalize(posix.join(posix.dirname(file), path));
      if (!repo.exists(resolved)) report(m.index, target, "link to a file that does not exist");
      else if (anchor !== undefined && resolved.endsWith(".md") && !repo.anchors(resolved).has(anchor)) {
        report(m.index, target, "link to a heading that does not exist");
      }
    }
  }
  return findings;
}

function harnessRuleCount(architecture: string): number {
  const rules = section(architecture, (heading) => heading === "The harness rules") ?? "";
  return rules.split("\n").filter((line) => /^\d+\. /.test(line)).length;
}

const files = SCANNED.flatMap(filesUnder).filter((f) => TEXT_FILE.test(f) && !CHECKERS.has(f));
const anchorCache = new Map<string, ReadonlySet<string>>();
const repository: Repository = {
  exists: (path) => existsSync(join(ROOT, path)),
  anchors(path) {
    let anchors = anchorCache.get(path);
    if (!anchors) {
      anchors = new Set(headings(readRepoFile(path)).map((h) => headingSlug(h.text)));
      anchorCache.set(path, anchors);
    }
    return anchors;
  },
  markdownNames: new Set(
    SCANNED.flatMap(filesUnder)
      .filter((f) => f.endsWith(".md"))
      .map((f) => posix.basename(f)),
  ),
  harnessRules: harnessRuleCount(readRepoFile("docs/architecture.md")),
};

describe("references", () => {
  it("docs/architecture.md lists the harness rules the code cites", () => {
    expect(repository.harnessRules).toBe(8);
  });

  it("every doc, comment and test cites only what is in the repository", () => {
    expect(files.length).toBeGreaterThan(300);
    const findings = files.flatMap((file) => findBadReferences(file, readRepoFile(file), repository));
    expect(findings.map((f) => `${f.file}:${f.line} ${f.why}: ${f.text}`)).toEqual([]);
  });

  it.each([
    ["a design note", "what the peers do (peers.md §1)"],
    ["the inventory", "the reference's format (inventory 4 §5)"],
    ["a shared path", "see ../shared/design/ARCHITECTURE.md"],
    ["the seed", "the seed leaves it open"],
    ["a seed line", "as on seed line 1234"],
    ["a bare rule", "a skill stays cancellable (rule 6)"],
    ["a harness rule that does not exist", "as harness rule 9 says"],
    ["a peer issue", "throwing there made reconnecting impossible (js#540)"],
    ["a peer issue with a space", "the GET-subscribe bug is a2a-js #569"],
    ["an issue", "the scenarios of issue 4"],
    ["an ADR", "session = contextId (ADR F2)"],
    ["a platform ticket", "a terminal state needs an explanation (KB-15)"],
    ["a section of something else", 'detach, never cancel (architecture §"hard parts" 3)'],
    ["a missing file", "see `src/server/no-such-file.ts`"],
    ["a missing Markdown file", "as decided in rationale.md"],
    ["a link to a missing file", "[the notes](notes/missing.md)"],
    ["a link to a missing heading", "[the rules](architecture.md#no-such-heading)"],
  ])("recognises %s", (_what, text) => {
    expect(findBadReferences("docs/planted.md", text, repository)).not.toEqual([]);
  });

  it.each([
    ["a spec section", "snapshot first (spec §3.1.6), then §10.6"],
    ["an RFC section", "JSON is UTF-8 (RFC 8259 §8.1)"],
    ["a harness rule", "harness rule 6 (docs/architecture.md), harness rules 1–5 and harness\n * rule 8"],
    ["the pinned spec's path", "`../shared/spec/a2a/v1.0.1`"],
    ["seeded randomness", "seeded random messages; the run id seeds the task id"],
    ["a file and a folder", "`src/server/execution.ts`, src/a2a/, `gen/a2a_pb.js`"],
    ["a link to a heading", "[the rules](architecture.md#the-harness-rules)"],
    ["a link to a folder and a file", "[specs](specs) and [serving](serving.md)"],
    ["a link out", "[A2A](https://a2a-protocol.org/)"],
  ])("accepts %s", (_what, text) => {
    expect(findBadReferences("docs/planted.md", text, repository)).toEqual([]);
  });
});
