/**
 * What the in-memory store keeps of quick tasks, and what a running task
 * holds. A settled task is kept as one flat string (decision S717), not the
 * chain of pieces the JSON writer joined. A running task's objects are
 * copied by young collections while it runs, so those the harness makes hold
 * their fields in themselves (no property array) and its lists hold exactly
 * their elements (no room left by a push), and so do the lists of a request
 * message the JSON codec decodes (it goes into the task's history; S716).
 * Read from a heap snapshot of a process of its own
 * (test/server/fixtures/stored-task-footprint.ts).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SCRIPT = path.join(import.meta.dirname, "fixtures/stored-task-footprint.ts");

describe("a stored echo task's footprint", () => {
  it("keeps a settled task as one flat string, and no property array nor spare list room in a running task, its status, message and artifact, nor in a decoded message's lists", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", SCRIPT], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    const [code] = await once(child, "close");
    expect(code).toBe(0);
    const { tasks, findings } = JSON.parse(out) as { tasks: number; findings: string[] };
    expect(tasks).toBe(20);
    expect(findings).toEqual([]);
  }, 120_000);
});
