import { describe, expect, it } from "vitest";
import { NovaOSServerError } from "../../src/errors/novaos-errors.js";
import { StreamEvent } from "../../src/platform/stream-event.js";

const message = (body: unknown, id?: string) =>
  StreamEvent.fromSse({ event: "message", data: JSON.stringify(body), id });

describe("StreamEvent.fromSse", () => {
  it("surfaces message.delta as chunk, with its content, SSE id and ordering metadata", () => {
    const event = message(
      { type: "message.delta", payload: { content: "Hel" }, run_id: "r1", sequence: 3, timestamp: 1_700_000_000_000 },
      "cursor-9",
    );
    expect(event).toMatchObject({
      type: "chunk",
      content: "Hel",
      id: "cursor-9",
      runId: "r1",
      sequence: 3,
      timestamp: "1700000000000",
      status: undefined,
    });
    expect(event.isTerminal).toBe(false);
  });

  it("treats an SSE event without a name as `message`", () => {
    const event = StreamEvent.fromSse({ data: JSON.stringify({ type: "done" }) });
    expect(event.type).toBe("done");
  });

  it("passes unknown types through under their own name with the payload untouched", () => {
    const payload = { connector: "gmail", auth_url: "https://accounts.example/oauth" };
    const event = message({ type: "connector.oauth_required", payload });
    expect(event.type).toBe("connector.oauth_required");
    expect(event.payload).toEqual(payload);
    expect(event.isTerminal).toBe(false);
    expect(event.isFailure).toBe(false);
  });

  it("keeps a hitl payload opaque", () => {
    const payload = { prompt: "Approve?", options: ["yes", "no"] };
    expect(message({ type: "hitl", payload }).payload).toEqual(payload);
  });

  it("reads the legacy `event: chunk|done|error` form, JSON or plain text", () => {
    expect(StreamEvent.fromSse({ event: "chunk", data: '{"content":"hi"}' })).toMatchObject({
      type: "chunk",
      content: "hi",
    });
    expect(StreamEvent.fromSse({ event: "chunk", data: "plain" })).toMatchObject({ type: "chunk", content: "plain" });
    const done = StreamEvent.fromSse({ event: "done", data: "{}", id: "7" });
    expect(done).toMatchObject({ type: "done", id: "7" });
    expect(done.isTerminal).toBe(true);
    const error = StreamEvent.fromSse({ event: "error", data: '{"message":"boom"}' });
    expect(error).toMatchObject({ type: "error", content: "boom" });
    expect(error.isFailure).toBe(true);
  });

  it("refuses an `event: message` that is not a JSON object with a type, without retrying it", () => {
    for (const data of ["not json", "[1]", '{"payload":{}}', '{"type":""}']) {
      let thrown: unknown;
      try {
        StreamEvent.fromSse({ event: "message", data });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(NovaOSServerError);
      expect((thrown as NovaOSServerError).isRetryable).toBe(false);
    }
  });
});

describe("StreamEvent terminality", () => {
  it.each([
    ["done", {}, true, false],
    ["error", { message: "boom" }, true, true],
    ["status", { status: "COMPLETED" }, true, false],
    ["status", { status: "FAILED", message: "late failure" }, true, true],
    ["status", { status: "CANCELLED" }, true, true],
    ["status", { status: "WAITING_USER" }, false, false],
    ["status", { status: "RUNNING" }, false, false],
    ["status", { status: "QUEUED" }, false, false],
    ["status", { status: "completed" }, false, false],
    ["status", { status: "DONE" }, false, false],
    ["status", { message: "Thinking about it" }, false, false],
    ["chunk-like", { content: "x" }, false, false],
    ["hitl", {}, false, false],
  ])("%s %j: terminal %s, failure %s", (type, payload, terminal, failure) => {
    const event = message({ type, payload });
    expect(event.isTerminal).toBe(terminal);
    expect(event.isFailure).toBe(failure);
  });

  it("sets status only for a status event that names one", () => {
    expect(message({ type: "status", payload: { status: "RUNNING" } }).status).toBe("RUNNING");
    expect(message({ type: "status", payload: { message: "Working" } })).toMatchObject({
      status: undefined,
      content: "Working",
    });
    expect(message({ type: "tool.result", payload: { status: "FAILED" } }).status).toBeUndefined();
    expect(message({ type: "tool.result", payload: { status: "FAILED" } }).isTerminal).toBe(false);
  });
});
