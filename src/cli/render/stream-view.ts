/**
 * A stream as it arrives. On a terminal: one live region (log-update) with a
 * spinner while the task runs, artifacts growing in place, and the final
 * state left on screen. Elsewhere: one plain line per frame, so a pipe or a
 * log file reads top to bottom. With `--json`: one JSON frame per line.
 */
import cliSpinners from "cli-spinners";
import { createLogUpdate } from "log-update";
import {
  applyArtifactUpdate,
  isLastFrame,
  type Message,
  type StreamResponse,
  StreamResponseSchema,
  type Task,
} from "../../index.js";
import { encodeMessage } from "../../protocol/index.js";
import type { Output } from "../output.js";
import { artifactLines, messageLines, messageText, paintState, partsText, stateName, taskLines } from "./task-text.js";

const SPINNER = cliSpinners.dots;

export class StreamView {
  readonly #out: Output;
  readonly #log: ReturnType<typeof createLogUpdate> | undefined;
  #task: Task | undefined;
  #message: Message | undefined;
  #waitingFor: string;
  #frame = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #finished = false;

  constructor(out: Output, waitingFor = "the agent") {
    this.#out = out;
    this.#waitingFor = waitingFor;
    this.#log = out.live ? createLogUpdate(out.io.stdout, { showCursor: true }) : undefined;
  }

  /** The task as the frames so far describe it. */
  get task(): Task | undefined {
    return this.#task;
  }

  get message(): Message | undefined {
    return this.#message;
  }

  /** Starts the spinner (terminal only). */
  start(): void {
    if (!this.#log) return;
    this.#render();
    this.#timer = setInterval(() => {
      this.#frame++;
      this.#render();
    }, SPINNER.interval);
    this.#timer.unref();
  }

  frame(frame: StreamResponse): void {
    const payload = frame.payload;
    switch (payload.case) {
      case "task":
        this.#task = payload.value;
        break;
      case "message":
        this.#message = payload.value;
        break;
      case "statusUpdate":
        if (this.#task) this.#task = { ...this.#task, status: payload.value.status };
        break;
      case "artifactUpdate":
        if (this.#task) this.#task = applyArtifactUpdate(this.#task, payload.value);
        break;
    }
    if (this.#out.json) {
      this.#out.io.stdout.write(`${JSON.stringify(encodeMessage(StreamResponseSchema, frame))}\n`);
    } else if (this.#log) {
      if (isLastFrame(frame)) this.finish();
      else this.#render();
    } else {
      for (const line of this.#plainLines(frame)) this.#out.line(line);
    }
  }

  /** Stops the spinner and leaves the last picture on screen. */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    if (this.#timer) clearInterval(this.#timer);
    if (!this.#log) return;
    this.#render();
    this.#log.done();
  }

  #render(): void {
    const colors = this.#out.colors;
    const spinner = this.#finished ? "" : `${colors.cyan(SPINNER.frames[this.#frame % SPINNER.frames.length] ?? "")} `;
    let lines: string[];
    if (this.#message) lines = messageLines(this.#message, colors);
    else if (this.#task) lines = taskLines(this.#task, colors);
    else lines = [`waiting for ${this.#waitingFor}…`];
    lines[0] = `${spinner}${lines[0]}`;
    this.#log?.(lines.join("\n"));
  }

  #plainLines(frame: StreamResponse): string[] {
    const colors = this.#out.colors;
    const payload = frame.payload;
    switch (payload.case) {
      case "task":
        return taskLines(payload.value, colors);
      case "message":
        return messageLines(payload.value, colors);
      case "statusUpdate": {
        const text = messageText(payload.value.status?.message);
        return [`status ${paintState(payload.value.status?.state, colors)}${text ? `: ${text}` : ""}`];
      }
      case "artifactUpdate": {
        const artifact = payload.value.artifact;
        if (!artifact) return [];
        return payload.value.append ? [partsText(artifact.parts)] : artifactLines(artifact, colors);
      }
      default:
        return [];
    }
  }
}

/** `completed`, `input-required`…, or `message` for a message-only answer. */
export function outcomeName(view: Pick<StreamView, "task" | "message">): string {
  if (view.message) return "message";
  return stateName(view.task?.status?.state);
}
