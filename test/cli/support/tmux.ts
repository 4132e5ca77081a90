/**
 * A real terminal for the CLI: a tmux session (120×40) on its own socket,
 * keys sent with send-keys, the screen read with capture-pane (wrapped lines joined). `waitFor`
 * polls the screen until the text appears or a deadline passes.
 */
import { execFileSync, spawnSync } from "node:child_process";

export function tmuxAvailable(): boolean {
  return spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;
}

/** Whether to skip: only when tmux is missing outside CI (CI installs it, so there it must run). */
export function skipWithoutTmux(): boolean {
  if (tmuxAvailable()) return false;
  if (process.env.CI) throw new Error("tmux is required in CI for the terminal tests (.ci/run installs it)");
  console.log("test/cli/terminal.test.ts skipped: tmux is not installed (apt-get install -y tmux)");
  return true;
}

export class TmuxSession {
  readonly #socket = `novaos-a2a-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
  readonly #name = "cli";

  constructor(env: Record<string, string>) {
    const assignments = Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    this.#tmux(["new-session", "-d", "-s", this.#name, "-x", "120", "-y", "40", ...assignments, "sh"]);
  }

  #tmux(args: string[]): string {
    return execFileSync("tmux", ["-L", this.#socket, ...args], { encoding: "utf8" });
  }

  /** Types `text` then Enter. */
  run(text: string): void {
    this.#tmux(["send-keys", "-t", this.#name, "-l", text]);
    this.#tmux(["send-keys", "-t", this.#name, "Enter"]);
  }

  /** Sends tmux key names (`C-c`, `Enter`, `y`). */
  keys(...keys: string[]): void {
    this.#tmux(["send-keys", "-t", this.#name, ...keys]);
  }

  screen(): string {
    return this.#tmux(["capture-pane", "-p", "-J", "-t", this.#name]);
  }

  /** The screen once `test` holds on it; fails with the last screen after `timeoutMs`. */
  async waitFor(test: string | RegExp | ((screen: string) => boolean), timeoutMs = 30_000): Promise<string> {
    const matches = (screen: string) =>
      typeof test === "string" ? screen.includes(test) : test instanceof RegExp ? test.test(screen) : test(screen);
    const deadline = Date.now() + timeoutMs;
    let screen = this.screen();
    while (!matches(screen)) {
      if (Date.now() > deadline) throw new Error(`screen never showed ${String(test)}:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      screen = this.screen();
    }
    return screen;
  }

  close(): void {
    spawnSync("tmux", ["-L", this.#socket, "kill-server"], { stdio: "ignore" });
  }
}
