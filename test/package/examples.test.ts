/**
 * The examples are what a user copies: each imports the package by name
 * (never the source), type-checks against the built package, and runs as is
 * in a fresh project that installed the packed tarball (from npm's cache, so
 * offline once the lock file's packages are there).
 */
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, tarball } from "./support/package.js";

const EXAMPLES = path.join(ROOT, "examples");
const files = readdirSync(EXAMPLES).filter((f) => f.endsWith(".ts"));

/** The examples that run to completion on their own (exit 0), with the lines each prints, in order. */
const RUNNABLE: Record<string, RegExp | RegExp[]> = {
  "hello-agent.ts": /^Hello, Ada!$/m,
  "streaming.ts": /stories are roads you walk twice/,
  "grpc-connect-es.ts": /connect-es error as the SDK's class: TaskNotFoundError/,
  "demo.ts": /All A2A methods behaved as specified\./,
  "pauses.ts": /^COMPLETED: Booked, paid and in your calendar/m,
  "discovery.ts": /^joke-agent offers: joke$/m,
  "sealed-secrets.ts": /^sent "the weekly report" with a 13-character password$/m,
  "card-signing.ts": /^verified the card of mailer\na changed card does not verify$/m,
  // make demo's NovaOS flow: every stage named, its checks passed.
  "platform-demo.ts": [
    /^① Local platform\n {3}NOVAOS_GATEWAY_URL=http:\/\/127\.0\.0\.1:\d+$/m,
    /^② Agents started; each registers itself in Agent DNS\n {3}trip-planner at .* capabilities: plan-trip$/m,
    /^③ Discovery: AgentDNSClient finds the agent that can plan a trip\n {3}found trip-planner \(instance [0-9a-f-]{36}\)$/m,
    /^④ Run through the Execution Gateway: .*\n {3}run [0-9a-f-]{36}$/m,
    /▕████████░░▏ 4\/5 asking the model \(2 guide\(s\), 0 earlier plan\(s\)\)\n {3}› Lisbon: the 28 tram climbs from Baixa to the castle\.$/m,
    /^⑤ HITL pause: the agent asks "Save this plan to your memory\? Answer yes or no\."$/m,
    /^⑥ Result \(done\):\n {3}Lisbon: the 28 tram climbs from Baixa to the castle\.\n {3}Saved the plan as mem_/m,
    /^The NovaOS flow ran end to end\.$/m,
  ],
};

describe("examples", () => {
  it("import the package by name, never its source", () => {
    expect(files.length).toBeGreaterThanOrEqual(11);
    const bySource = files.filter((f) => /from "\.\.\/(src|gen)\//.test(readFileSync(path.join(EXAMPLES, f), "utf8")));
    expect(bySource).toEqual([]);
  });

  it("type-check against the built package", () => {
    // No `paths`: `@novaos/client-sdk` resolves through package.json `exports` to dist/, as in a user's project.
    const program = ts.createProgram(
      files.map((f) => path.join(EXAMPLES, f)),
      {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ["lib.es2023.d.ts", "lib.esnext.disposable.d.ts"],
        types: ["node"],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
    );
    const resolved = program.getSourceFiles().map((s) => s.fileName);
    expect(resolved).toContain(path.join(ROOT, "dist/index.d.ts"));
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file ? path.relative(ROOT, d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
      );
    expect(problems).toEqual([]);
  }, 120_000);

  describe("copied into a fresh project that installed the tarball", () => {
    let project: string;
    beforeAll(async () => {
      project = await mkdtemp(path.join(os.tmpdir(), "novaos-fresh-"));
      writeFileSync(path.join(project, "package.json"), '{ "name": "fresh", "private": true, "type": "module" }\n');
      // `openai` is the optional peer LLMClient loads (the NovaOS demo's agent asks the local LLM gateway).
      const openai = `openai@${(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies.openai}`;
      execFileSync(
        "npm",
        ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", tarball(), openai],
        {
          cwd: project,
          stdio: ["ignore", "ignore", "inherit"],
        },
      );
      cpSync(EXAMPLES, project, { recursive: true });
    }, 300_000);
    afterAll(() => rm(project, { recursive: true, force: true }));

    it.each(Object.entries(RUNNABLE))(
      "%s runs",
      (file, expected) => {
        // tsx runs the TypeScript; the package and its dependencies come from the project's node_modules.
        const tsx = path.join(ROOT, "node_modules/tsx/dist/loader.mjs");
        const out = execFileSync(process.execPath, ["--import", tsx, file], {
          cwd: project,
          encoding: "utf8",
          timeout: 120_000,
          env: { ...process.env, NOVAOS_LOG_FORMAT: "json", LOG_LEVEL: "warn" },
        });
        // execFileSync throws on a non-zero exit; each expected line is found after the one before.
        let rest = out;
        for (const line of [expected].flat()) {
          const found = line.exec(rest);
          expect(found, `${file} printed ${line}`).not.toBeNull();
          rest = rest.slice((found?.index ?? 0) + (found?.[0].length ?? 0));
        }
      },
      150_000,
    );
  });
});
