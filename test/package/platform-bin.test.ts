/**
 * The built `novaos-platform` bin as a user starts it: it prints each
 * service's URL as the variable the SDK reads, writes them to `--write-env`,
 * serves, and on SIGTERM closes and exits 0.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { DIST } from "./support/package.js";

describe("the novaos-platform bin", () => {
  it("prints the services' URLs, serves them, and exits 0 on SIGTERM", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "novaos-platform-bin-"));
    const envFile = path.join(dir, "platform.env");
    const child = spawn(process.execPath, [path.join(DIST, "novaos-platform.js"), "--write-env", envFile], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = once(child, "exit");
    try {
      // The lines up to the last variable the bin prints (NOVAOS_TOKEN_ISSUER).
      const printed: string[] = [];
      for await (const line of createInterface({ input: child.stdout })) {
        printed.push(line);
        if (line.startsWith("NOVAOS_TOKEN_ISSUER=")) break;
      }
      expect(printed[0]).toMatch(/^novaos-platform: ready in \d+ ms$/);
      const env = Object.fromEntries(printed.slice(1).map((line) => line.split(/=(.*)/s).slice(0, 2)));
      expect(readFileSync(envFile, "utf8")).toBe(
        printed
          .slice(1)
          .map((line) => `${line}\n`)
          .join(""),
      );

      const models = await fetch(`${env.LLM_GATEWAY_URL}/v1/models`);
      expect(models.status).toBe(200);
      expect(((await models.json()) as { data: { id: string }[] }).data.map((model) => model.id)).toContain(
        "novaos-local-chat",
      );
      expect((await fetch(`${env.AGENT_DNS_URL}/agents`)).status).toBe(200);

      child.kill("SIGTERM");
      const [code, signal] = await exited;
      expect([code, signal]).toEqual([0, null]);
    } finally {
      child.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
