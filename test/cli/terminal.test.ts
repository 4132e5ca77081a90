/**
 * The CLI as a person sees it, in a pseudo-terminal (tmux): `stream` draws one
 * live region (a spinner while the task works, the story growing in place,
 * the final state left on screen); Ctrl-C offers to cancel the task and does;
 * `chat` keeps the conversation and answers an INPUT_REQUIRED pause in place.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TaskState } from "../../gen/a2a_pb.js";
import { Client } from "../../src/client/client.js";
import { type ExampleAgent, startExampleAgent } from "./support/agents.js";
import { CLI_COMMAND, ROOT } from "./support/run-cli.js";
import { skipWithoutTmux, TmuxSession } from "./support/tmux.js";

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const skip = skipWithoutTmux();
const cli = `cd ${ROOT} && ${CLI_COMMAND}`;

describe.skipIf(skip)("in a terminal", () => {
  let agent: ExampleAgent;
  /** Its story never ends on its own, so a cancel never races the last sentence. */
  let endless: ExampleAgent;
  let tmux: TmuxSession | undefined;
  beforeAll(async () => {
    [agent, endless] = await Promise.all([startExampleAgent(700), startExampleAgent(600_000)]);
  });
  afterAll(async () => {
    await Promise.all([agent?.close(), endless?.close()]);
  });
  afterEach(() => {
    tmux?.close();
    tmux = undefined;
  });

  it("stream draws the task in place: a spinner while it works, the story growing, the final state", {
    timeout: 60_000,
  }, async () => {
    tmux = new TmuxSession({ TERM: "xterm-256color" });
    tmux.run(`${cli} stream ${agent.url} "a fox" --skill storyteller; echo "EXIT=$?"`);
    const working = await tmux.waitFor((s) => /task \S+ {2}working/.test(s) && s.includes("Once upon a time"));
    expect(working).toMatch(SPINNER);
    const done = await tmux.waitFor("EXIT=0");
    expect(done).toMatch(/task \S+ {2}completed/);
    expect(done).toContain("── A story about a fox ──");
    // The region wraps long lines at the terminal's width.
    expect(done.replaceAll("\n", "")).toContain("And that is how a fox learned that stories are roads you walk twice.");
    // Drawn in place: the story and its heading appear once, and no frame-by-frame status lines.
    expect(done.match(/Once upon a time/g)).toHaveLength(1);
    expect(done.match(/── A story about a fox ──/g)).toHaveLength(1);
    expect(done).not.toMatch(/^status /m);
    expect(done.split("\n").find((l) => /task \S+ {2}completed/.test(l))).not.toMatch(SPINNER);
  });

  it("Ctrl-C stops the stream and offers to cancel the task; yes cancels it on the agent", {
    timeout: 60_000,
  }, async () => {
    tmux = new TmuxSession({ TERM: "xterm-256color" });
    tmux.run(`${cli} stream ${endless.url} "a long night" --skill storyteller; echo "EXIT=$?"`);
    const working = await tmux.waitFor(/task \S+ {2}working/);
    const taskId = /task (\S+) {2}working/.exec(working)?.[1] as string;
    tmux.keys("C-c");
    await tmux.waitFor(`Cancel task ${taskId} on the agent?`);
    tmux.keys("y");
    const ended = await tmux.waitFor("EXIT=130");
    expect(ended).toContain(`task ${taskId} canceled`);
    await using client = new Client({ baseUrl: endless.url });
    expect((await client.getTask(taskId)).status?.state).toBe(TaskState.CANCELED);
  });

  it("chat keeps the context and answers the agent's question in place", { timeout: 60_000 }, async () => {
    tmux = new TmuxSession({ TERM: "xterm-256color" });
    tmux.run(`${cli} chat ${agent.url} --skill approval; echo "EXIT=$?"`);
    await tmux.waitFor("chat with example-agent");
    await tmux.waitFor("you");
    tmux.run("a trip to Lisbon");
    const asked = await tmux.waitFor("the agent asks");
    expect(asked).toContain('Shall I book "a trip to Lisbon"? Answer yes or no.');
    expect(asked).toMatch(/task \S+ {2}input-required/);
    tmux.run("yes");
    const booked = await tmux.waitFor("Booked: a trip to Lisbon.");
    expect(booked).toMatch(/task \S+ {2}completed/);
    await tmux.waitFor(/you\s/);
    tmux.keys("Enter");
    await tmux.waitFor("EXIT=0");
  });
});
