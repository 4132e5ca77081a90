/**
 * Every agent command against our example agent and against an @a2a-js/sdk
 * 1.3.0 server, over JSON-RPC, HTTP+JSON and gRPC, with stdout a pipe: plain
 * lines for people, `--json` for scripts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type ExampleAgent,
  type PeerAgent,
  startExampleAgent,
  startPeerAgent,
  type TestAgent,
} from "./support/agents.js";
import { cli, jsonLines } from "./support/run-cli.js";

interface Target {
  readonly name: string;
  agent(): TestAgent;
  /** A message that finishes, and the text its answer contains. */
  readonly quick: readonly string[];
  readonly quickAnswer: string;
  /** A message streamed as several artifact chunks, and text of a later chunk. */
  readonly streamed: readonly string[];
  readonly streamedText: string;
  /** A message whose task keeps working until canceled (or for a while). */
  readonly slow: readonly string[];
}

let ours: ExampleAgent;
let peer: PeerAgent;

beforeAll(async () => {
  // a2a-js logs every error it answers with.
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  [ours, peer] = await Promise.all([startExampleAgent(400), startPeerAgent()]);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all([ours?.close(), peer?.close()]);
});

const TARGETS: readonly Target[] = [
  {
    name: "our example agent",
    agent: () => ours,
    quick: ["hello", "--skill", "echo"],
    quickAnswer: "You said: hello",
    streamed: ["a fox", "--skill", "storyteller"],
    streamedText: "And that is how a fox learned",
    slow: ["a fox", "--skill", "storyteller"],
  },
  {
    name: "@a2a-js/sdk 1.3.0",
    agent: () => peer,
    quick: ["task"],
    quickAnswer: "chunk 0",
    streamed: ["stream:3"],
    streamedText: "chunk 2",
    slow: ["hold"],
  },
];

type Task = { id: string; contextId: string; status: { state: string } };

describe.each(TARGETS)("against $name", (target) => {
  describe.each(["JSONRPC", "HTTP+JSON", "GRPC"])("over %s", (binding) => {
    const url = () => target.agent().url;
    const on = ["--binding", binding];

    it("send prints the finished task; --json prints the SendMessage answer", async () => {
      const human = await cli(["send", url(), ...target.quick, ...on]);
      expect(human).toMatchObject({ code: 0, stderr: "" });
      expect(human.stdout).toContain(target.quickAnswer);
      expect(human.stdout).toMatch(/^task \S+ {2}completed$/m);
      const json = await cli(["--json", "send", url(), ...target.quick, ...on]);
      const [answer] = jsonLines(json.stdout) as [{ task: Task }];
      expect(answer.task.status.state).toBe("TASK_STATE_COMPLETED");
    });

    it("stream prints one plain line per frame when stdout is not a terminal; --json one frame per line", async () => {
      const human = await cli(["stream", url(), ...target.streamed, ...on]);
      expect(human.code).toBe(0);
      expect(human.stdout).toContain(target.streamedText);
      expect(human.stdout).toMatch(/^status completed/m);
      expect(human.stdout).not.toContain("\u001b[");
      const json = await cli(["--json", "stream", url(), ...target.streamed, ...on]);
      const frames = jsonLines(json.stdout) as Record<string, { status?: { state: string } }>[];
      expect(Object.keys(frames[0] ?? {})).toEqual(["task"]);
      expect(frames.at(-1)?.statusUpdate?.status?.state).toBe("TASK_STATE_COMPLETED");
    });

    it("task get, list and cancel", async () => {
      const sent = jsonLines((await cli(["--json", "send", url(), ...target.quick, ...on])).stdout) as [{ task: Task }];
      const id = sent[0].task.id;
      const got = await cli(["--json", "task", "get", url(), id, ...on]);
      expect((jsonLines(got.stdout)[0] as Task).status.state).toBe("TASK_STATE_COMPLETED");
      const listed = await cli(["task", "list", url(), "--context", sent[0].task.contextId, ...on]);
      expect(listed.stdout).toContain(`${id}  completed`);
      const held = jsonLines(
        (await cli(["--json", "send", url(), ...target.slow, "--return-immediately", ...on])).stdout,
      ) as [{ task: Task }];
      const canceled = await cli(["task", "cancel", url(), held[0].task.id, ...on]);
      expect(canceled.stdout).toMatch(/^task \S+ {2}canceled$/m);
      const finished = await cli(["task", "cancel", url(), id, ...on]);
      expect(finished.code).toBe(4);
      expect(finished.stderr).toMatch(/^novaos-a2a: TaskNotCancelableError \(-32002\)/);
    });

    it("task subscribe follows a running task from its current state to the end", async () => {
      const held = jsonLines(
        (await cli(["--json", "send", url(), ...target.slow, "--return-immediately", ...on])).stdout,
      ) as [{ task: Task }];
      const id = held[0].task.id;
      // The a2a-js `hold` task finishes when released: release it once the subscription's first frame is in.
      const subscribed = cli(["--json", "task", "subscribe", url(), id, ...on], {
        onStdout: (soFar) => {
          if (target.agent() === peer && soFar.includes("\n")) peer.peer.release(id);
        },
      });
      const run = await subscribed;
      expect(run.code).toBe(0);
      const frames = jsonLines(run.stdout) as Record<string, { id?: string; status?: { state: string } }>[];
      expect(frames[0]?.task?.id).toBe(id);
      expect(frames.at(-1)?.statusUpdate?.status?.state).toBe("TASK_STATE_COMPLETED");
    });

    it("push create, get, list and delete", async () => {
      const sent = jsonLines((await cli(["--json", "send", url(), ...target.quick, ...on])).stdout) as [{ task: Task }];
      const taskId = sent[0].task.id;
      const created = await cli(["--json", "push", "create", url(), taskId, "https://hooks.example/a2a", ...on]);
      const config = jsonLines(created.stdout)[0] as { id: string; url: string };
      expect(config.url).toBe("https://hooks.example/a2a");
      const got = await cli(["push", "get", url(), taskId, config.id, ...on]);
      expect(got.stdout).toContain(`${config.id}  https://hooks.example/a2a`);
      const listed = await cli(["push", "list", url(), taskId, ...on]);
      expect(listed.stdout).toContain(config.id);
      expect(await cli(["push", "delete", url(), taskId, config.id, ...on])).toMatchObject({ code: 0 });
      const empty = await cli(["push", "list", url(), taskId, ...on]);
      expect(empty.stdout).not.toContain(config.id);
    });
  });
});

describe("card", () => {
  it("summarises and lints our example agent's card: every interface answers, exit 0", async () => {
    const run = await cli(["card", ours.url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("example-agent 1.0.0");
    expect(run.stdout).toMatch(/^ {2}storyteller {2}Tells a short story/m);
    expect(run.stdout.match(/· reachable: .* answers/g)).toHaveLength(3);
    expect(run.stdout).toContain("· signature: unsigned");
  });

  it("reports a REQUIRED field the a2a-js test card leaves empty, and exits 1", async () => {
    const run = await cli(["--json", "card", `${peer.url}.well-known/agent-card.json`]);
    expect(run.code).toBe(1);
    const report = jsonLines(run.stdout)[0] as { ok: boolean; lint: { level: string; message: string }[] };
    expect(report.ok).toBe(false);
    expect(report.lint.filter((f) => f.level === "error").map((f) => f.message)).toEqual([
      "skills[0].tags: tags is required",
    ]);
  });
});

describe("--help and usage errors", () => {
  it("every command's --help lists the exit codes", async () => {
    for (const argv of [
      ["--help"],
      ["check", "--help"],
      ["task", "cancel", "--help"],
      ["keys", "generate", "--help"],
    ]) {
      const run = await cli(argv);
      expect(run.code, argv.join(" ")).toBe(0);
      expect(run.stdout, argv.join(" ")).toContain("130  interrupted (Ctrl-C)");
    }
  });

  it("an unknown option or a missing argument is exit 2 with one line on stderr", async () => {
    const unknown = await cli(["send", ours.url, "hi", "--frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown option '--frobnicate'/);
    expect((await cli(["task", "get", ours.url])).code).toBe(2);
    expect((await cli(["send", ours.url, "hi", "--binding", "carrier-pigeon"])).code).toBe(2);
  });
});
