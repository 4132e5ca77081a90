/**
 * A throwaway PostgreSQL cluster for the tests: initdb into a temporary
 * directory, started with pg_ctl on a free loopback port, stopped and removed
 * afterwards. PostgreSQL refuses to run as root, so under root (CI runs as
 * root) initdb and pg_ctl run as the `postgres` user, which the Debian
 * package creates.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the superuser, trusted on loopback. */
  readonly url: string;
  stop(): Promise<void>;
  /** Stops the server (every connection dropped, committed data kept) and starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops the server (committed data kept) until `resume()`: an outage. */
  pause(): Promise<void>;
  /** Starts a paused server again on the same port. */
  resume(): Promise<void>;
  /** Stops the server without waiting (for a process that is exiting). */
  stopNow(): void;
}

/** The directory holding initdb, pg_ctl and postgres: `$POSTGRES_BIN`, the newest Debian install, or the PATH. */
export function findPostgresBin(): string | undefined {
  const candidates = [process.env.POSTGRES_BIN];
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(join(debian, v, "bin"));
  }
  for (const dir of (process.env.PATH ?? "").split(":")) candidates.push(dir);
  return candidates.find((dir) => dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl")));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgresCluster(bin: string): Promise<PostgresCluster> {
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(join(tmpdir(), "novaos-pg-"));
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    await chown(dir, uid, gid);
  }
  const command = (tool: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", join(bin, tool), ...args]) : run(join(bin, tool), args);
  const data = join(dir, "data");
  await command("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"]);
  const pgCtl = (args: string[]) => command("pg_ctl", ["-D", data, ...args]);
  let port = 0;
  let settings = "";
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    settings = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses=127.0.0.1",
      "-c max_connections=200",
      // A throwaway cluster: durability buys nothing.
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
    ].join(" ");
    try {
      await pgCtl(["-w", "-t", "60", "-l", join(dir, "server.log"), "-o", settings, "start"]);
      break;
    } catch (error) {
      // Another process may have taken the port between the probe and the start.
      if (attempt >= 5) {
        const log = await readFile(join(dir, "server.log"), "utf8").catch(() => "");
        throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${log}`);
      }
    }
  }
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pgCtl(["-m", "immediate", "-w", "stop"]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
    async restart() {
      // Fast, not immediate: with fsync off only a clean shutdown keeps what was committed.
      await pgCtl(["-m", "fast", "-w", "-t", "60", "-l", join(dir, "server.log"), "restart"]);
    },
    async pause() {
      await pgCtl(["-m", "fast", "-w", "-t", "60", "stop"]);
    },
    async resume() {
      await pgCtl(["-w", "-t", "60", "-l", join(dir, "server.log"), "-o", settings, "start"]);
    },
    stopNow() {
      if (stopped) return;
      stopped = true;
      const args = ["-D", data, "-m", "immediate", "stop"];
      try {
        if (asRoot)
          execFileSync("runuser", ["-u", "postgres", "--", join(bin, "pg_ctl"), ...args], { stdio: "ignore" });
        else execFileSync(join(bin, "pg_ctl"), args, { stdio: "ignore" });
      } catch {
        // Already gone.
      }
    },
  };
}

/** A cluster of a test's own, which it may stop or restart without disturbing other files; fails without binaries. */
export async function startOwnCluster(): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  if (!bin) throw new Error("No PostgreSQL binaries to start a cluster of this test's own (set POSTGRES_BIN)");
  return startPostgresCluster(bin);
}
