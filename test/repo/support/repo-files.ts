/**
 * Reading the repository's own files, for the tests that hold its docs and
 * comments to what is inside it.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** Every file under `path` (a file or a folder, relative to the root), as root-relative POSIX paths. */
export function filesUnder(path: string): string[] {
  const absolute = join(ROOT, path);
  if (!statSync(absolute).isDirectory()) return [path];
  const out: string[] = [];
  for (const entry of readdirSync(absolute, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    out.push(relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join("/"));
  }
  return out.sort();
}

export function readRepoFile(path: string): string {
  return readFileSync(join(ROOT, path), "utf8");
}

/** The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}_\- ]/gu, "")
    .replace(/ /g, "-");
}

/** The headings of a Markdown text outside fenced code blocks, with their levels. */
export function headings(markdown: string): { level: number; text: string }[] {
  const out: { level: number; text: string }[] = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,6}) (.*)$/.exec(line);
    if (heading) out.push({ level: (heading[1] as string).length, text: (heading[2] as string).trim() });
  }
  return out;
}

/** The body of the Markdown section under the heading that `match` picks, up to the next heading of its level or above. */
export function section(markdown: string, match: (heading: string) => boolean): string | undefined {
  const lines = markdown.split("\n");
  let fenced = false;
  let start = -1;
  let level = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,6}) (.*)$/.exec(line);
    if (!heading) continue;
    const headingLevel = (heading[1] as string).length;
    if (start >= 0 && headingLevel <= level) return lines.slice(start + 1, i).join("\n");
    if (start < 0 && match((heading[2] as string).trim())) {
      start = i;
      level = headingLevel;
    }
  }
  return start < 0 ? undefined : lines.slice(start + 1).join("\n");
}
