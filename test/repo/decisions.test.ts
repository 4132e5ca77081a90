/**
 * docs/decisions.md stays a record a reader can scan and trust: one heading
 * per decision (`### <ID> — <statement>`) under one `##` per area, each area
 * listing its decisions first, every decision with its reason and the tests
 * that pin it, and every pinning test file and test name still there.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { headingSlug, headings, ROOT, readRepoFile, section } from "./support/repo-files.js";

const RECORD = readRepoFile("docs/decisions.md");
const DECISION_HEADING = /^([A-Z]+\d+) — \S.*$/;

interface Decision {
  readonly id: string;
  readonly heading: string;
  readonly area: string;
  readonly body: string;
}

function decisions(): Decision[] {
  let area = "";
  const out: Decision[] = [];
  for (const { level, text } of headings(RECORD)) {
    if (level === 2) area = text;
    if (level !== 3) continue;
    out.push({
      id: DECISION_HEADING.exec(text)?.[1] ?? "",
      heading: text,
      area,
      body: section(RECORD, (h) => h === text) ?? "",
    });
  }
  return out;
}

/** The paragraph that starts with `label`, joined into one line. */
function paragraph(body: string, label: string): string | undefined {
  const at = body.indexOf(label);
  if (at < 0) return undefined;
  return body
    .slice(at + label.length)
    .split(/\n\s*\n/)[0]
    ?.replace(/\s+/g, " ")
    .trim();
}

/** The pieces of a cited test name that must occur in its file: split at "…" and printf placeholders. */
function nameFragments(name: string): string[] {
  return name
    .split(/…|\.\.\.|%[sdifjoOp#%]/)
    .map((fragment) => fragment.trim())
    .filter((fragment) => fragment.length >= 3);
}

/** What a "Pinned by" paragraph cites that cannot be found: a missing file, or a name not in its file. */
function missingPins(pins: string): string[] {
  const missing: string[] = [];
  let file: string | undefined;
  for (const m of pins.matchAll(/`([^`]+)`|"([^"]+)"/g)) {
    if (m[1] !== undefined) {
      const path = m[1];
      file = /^(test|openapi|bench)\/[\w./-]+\.(ts|json|yaml)$/.test(path) ? path : undefined;
      if (file && !existsSync(join(ROOT, file))) missing.push(`no file ${file}`);
      continue;
    }
    if (!file || !existsSync(join(ROOT, file))) continue;
    const text = readRepoFile(file);
    for (const fragment of nameFragments(m[2] as string)) {
      if (!text.includes(fragment)) missing.push(`${file} has no "${fragment}"`);
    }
  }
  return missing;
}

describe("docs/decisions.md", () => {
  const all = decisions();

  it("has one heading per decision, each an ID and a short statement, IDs unique", () => {
    expect(all.length).toBeGreaterThan(200);
    expect(all.filter((d) => d.id === "").map((d) => d.heading)).toEqual([]);
    const seen = new Set<string>();
    expect(all.filter((d) => seen.size === seen.add(d.id).size).map((d) => d.id)).toEqual([]);
    expect(all.filter((d) => d.heading.length > 110).map((d) => d.heading)).toEqual([]);
  });

  it("gives every decision its reason and the tests that pin it", () => {
    const incomplete = all.filter(
      (d) => !paragraph(d.body, "**Why:**") || !paragraph(d.body, "**Pinned by:**") || d.body.trim().startsWith("**"),
    );
    expect(incomplete.map((d) => d.id)).toEqual([]);
  });

  it("lists each area's decisions at the top of the area, in order", () => {
    const areas = [...new Set(all.map((d) => d.area))];
    expect(areas.length).toBeGreaterThan(5);
    for (const area of areas) {
      const listed = [...(section(RECORD, (h) => h === area) ?? "").matchAll(/^- \[(.+)\]\(#(.+)\)$/gm)];
      const headed = all.filter((d) => d.area === area);
      expect(
        listed.map((m) => m[1]),
        area,
      ).toEqual(headed.map((d) => d.heading));
      expect(
        listed.map((m) => m[2]),
        area,
      ).toEqual(headed.map((d) => headingSlug(d.heading)));
    }
  });

  it("cites pinning tests that exist, by names found in their files", () => {
    const missing = all.flatMap((d) =>
      missingPins(paragraph(d.body, "**Pinned by:**") ?? "").map((m) => `${d.id}: ${m}`),
    );
    expect(missing).toEqual([]);
  });

  it("notices a pin whose test is gone", () => {
    expect(missingPins('`test/server/harness.test.ts` "a test nobody wrote"')).not.toEqual([]);
    expect(missingPins("`test/server/no-such.test.ts`")).not.toEqual([]);
    expect(missingPins('`test/server/harness.test.ts` "harness rule 1: CancelTask…"')).toEqual([]);
  });
});
