import { describe, expect, it } from "vitest";
import { createSseDecoder, encodeSseEvent, readSseEvents, SseEventTooLargeError } from "../../src/a2a/sse.js";

const bytes = (s: string) => new TextEncoder().encode(s);

function streamOf(chunks: Uint8Array[], onCancel?: () => void): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++] as Uint8Array);
      else controller.close();
    },
    cancel: onCancel,
  });
}

async function collect(stream: ReadableStream<Uint8Array>, maxEventBytes?: number) {
  const out = [];
  for await (const e of readSseEvents(stream, { maxEventBytes })) out.push(e);
  return out;
}

describe("encodeSseEvent", () => {
  it("frames one data line and a blank line", () => {
    expect(encodeSseEvent('{"a":1}')).toBe('data: {"a":1}\n\n');
    expect(encodeSseEvent("{}", { event: "error", id: "7" })).toBe("event: error\nid: 7\ndata: {}\n\n");
  });

  it("round-trips JSON with newlines and non-ASCII in strings", async () => {
    const payload = JSON.stringify({ text: "line1\nline2 — ünïcödé 🎉" });
    const [event] = await collect(streamOf([bytes(encodeSseEvent(payload))]));
    expect(JSON.parse(event?.data ?? "")).toEqual({ text: "line1\nline2 — ünïcödé 🎉" });
  });
});

describe("readSseEvents", () => {
  it("reassembles events split at every byte, multi-byte characters included", async () => {
    const wire = bytes(`${encodeSseEvent('{"n":"é🎉"}')}: a comment\n\n${encodeSseEvent('{"n":2}', { id: "2" })}`);
    const chunks = [...wire].map((b) => new Uint8Array([b]));
    expect(await collect(streamOf(chunks))).toEqual([
      { data: '{"n":"é🎉"}', event: undefined, id: undefined },
      { data: '{"n":2}', event: undefined, id: "2" },
    ]);
  });

  it("joins multi-line data with newlines and accepts CRLF", async () => {
    const events = await collect(streamOf([bytes("event: x\r\ndata: a\r\ndata: b\r\n\r\n")]));
    expect(events).toEqual([{ data: "a\nb", event: "x", id: undefined }]);
  });

  it("refuses an event over the cap while it is still arriving", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(bytes(pulled === 1 ? "data: " : "x".repeat(1024)));
      },
    });
    await expect(collect(endless, 4096)).rejects.toBeInstanceOf(SseEventTooLargeError);
    expect(pulled).toBeLessThan(10);
  });

  it("accepts events up to the cap and counts from the last complete event", async () => {
    const event = encodeSseEvent("y".repeat(900));
    const events = await collect(streamOf([bytes(event), bytes(event), bytes(event)]), 1000);
    expect(events).toHaveLength(3);
  });

  it("cancels the body when the consumer stops early", async () => {
    let cancelled = false;
    const stream = streamOf([bytes(encodeSseEvent("1")), bytes(encodeSseEvent("2"))], () => {
      cancelled = true;
    });
    for await (const _ of readSseEvents(stream)) break;
    expect(cancelled).toBe(true);
  });

  it("exposes an incremental decoder", () => {
    const decoder = createSseDecoder();
    expect(decoder.feed(bytes("data: par"))).toEqual([]);
    expect(decoder.feed(bytes("tial\n\n")).map((e) => e.data)).toEqual(["partial"]);
  });
});
