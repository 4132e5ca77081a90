/**
 * The one capped body reader: a body is refused as soon as it passes its cap
 * (or before anything is read when its declared length says it will), what
 * is past the cap is neither read nor kept, and a body of many chunks comes
 * out whole and in order.
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  BodyAbortedError,
  BodyTooLargeError,
  readBodyText,
  readErrorBody,
  readNodeBody,
  readStreamBody,
} from "../../src/http/capped-body.js";

const KiB = 1024;

/** A node stream of `count` chunks of `size` bytes (byte i of chunk n is n), counting what was pulled from it. */
function nodeSource(count: number, size: number) {
  let pulled = 0;
  let produced = 0;
  const stream = new Readable({
    highWaterMark: size,
    read() {
      if (produced === count) {
        this.push(null);
        return;
      }
      pulled += size;
      this.push(Buffer.alloc(size, produced++ % 256));
    },
  });
  return { stream, pulled: () => pulled };
}

/** A Fetch body of `count` chunks of `size` bytes, counting pulls and recording a cancel. */
function webSource(count: number, size: number) {
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === count * size) {
        controller.close();
        return;
      }
      controller.enqueue(new Uint8Array(size).fill((pulled / size) % 256));
      pulled += size;
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

describe("readNodeBody", () => {
  it("reads a body of many chunks whole and in order", async () => {
    const { stream } = nodeSource(1000, KiB);
    const body = await readNodeBody(stream, { maxBytes: 1000 * KiB });
    expect(body.byteLength).toBe(1000 * KiB);
    expect([body[0], body[KiB], body[999 * KiB]]).toEqual([0, 1, 999 % 256]);
  });

  it("refuses a body past its cap and stops reading it", async () => {
    const { stream, pulled } = nodeSource(100_000, KiB); // ~100 MB on offer
    const refused = await readNodeBody(stream, { maxBytes: 64 * KiB }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BodyTooLargeError);
    expect((refused as BodyTooLargeError).maxBytes).toBe(64 * KiB);
    // What the stream read ahead of the reader, and no more.
    expect(pulled()).toBeLessThanOrEqual(64 * KiB + 4 * KiB);
    expect(stream.isPaused()).toBe(true);
  });

  it("refuses a declared length over the cap before reading a byte", async () => {
    const { stream, pulled } = nodeSource(10, KiB);
    const refused = await readNodeBody(stream, { maxBytes: KiB, declaredLength: 10 * KiB }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BodyTooLargeError);
    expect((refused as BodyTooLargeError).declaredLength).toBe(10 * KiB);
    expect(pulled()).toBe(0);
  });

  it("refuses a body whose head declares more than the cap as soon as the head is in", async () => {
    let sent = 0;
    const stream = new Readable({
      highWaterMark: 1,
      read() {
        // One byte at a time: the head arrives over several chunks.
        sent += 1;
        this.push(Buffer.from([sent <= 4 ? 0xff : 0]));
      },
    });
    // The first four bytes are the length, big-endian (0xffffffff here).
    const lengthFromHead = (head: Uint8Array) =>
      head.byteLength < 4 ? undefined : new DataView(head.buffer, head.byteOffset).getUint32(0);
    const refused = await readNodeBody(stream, { maxBytes: 1e6, lengthFromHead }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BodyTooLargeError);
    expect((refused as BodyTooLargeError).declaredLength).toBe(0xffffffff);
    expect(sent).toBeLessThanOrEqual(6);
  });

  it("takes a body that arrived whole in one read, without flowing, and refuses it past the cap", async () => {
    const arrived = () => {
      const stream = new Readable({ read() {} });
      stream.push(Buffer.from("12345"));
      return stream;
    };
    const whole = arrived();
    const body = await readNodeBody(whole, { maxBytes: 5, arrived: true });
    expect(Buffer.from(body).toString()).toBe("12345");
    expect(whole.readableFlowing).toBe(null);
    const refused = await readNodeBody(arrived(), { maxBytes: 4, arrived: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BodyTooLargeError);
    expect((refused as BodyTooLargeError).maxBytes).toBe(4);
  });

  it("rejects with BodyAbortedError when the sender goes away before the end, or the stream fails", async () => {
    const stream = new Readable({ read() {} });
    const read = readNodeBody(stream, { maxBytes: KiB });
    stream.push(Buffer.from("{"));
    stream.destroy();
    await expect(read).rejects.toThrow(BodyAbortedError);
    const failing = new Readable({ read() {} });
    const failed = readNodeBody(failing, { maxBytes: KiB });
    const reset = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    failing.destroy(reset);
    await expect(failed).rejects.toMatchObject({ name: "BodyAbortedError", cause: reset });
  });
});

describe("readStreamBody", () => {
  it("reads a Fetch body whole, and an absent one as empty", async () => {
    const { stream, cancelled } = webSource(300, KiB);
    expect((await readStreamBody(stream, { maxBytes: 300 * KiB })).byteLength).toBe(300 * KiB);
    expect(cancelled()).toBe(false);
    expect((await readStreamBody(null, { maxBytes: 1 })).byteLength).toBe(0);
  });

  it("refuses a body past its cap and cancels it, reading no further", async () => {
    const { stream, pulled, cancelled } = webSource(100_000, KiB);
    await expect(readStreamBody(stream, { maxBytes: 10 * KiB })).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(cancelled()).toBe(true);
    expect(pulled()).toBeLessThanOrEqual(12 * KiB);
  });

  it("refuses a declared length over the cap without pulling the body", async () => {
    const { stream, pulled } = webSource(10, KiB);
    await expect(readStreamBody(stream, { maxBytes: KiB, declaredLength: 2 * KiB })).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
    expect(pulled()).toBeLessThanOrEqual(KiB);
  });
});

describe("reading reply bodies", () => {
  it("reads text up to the cap and refuses a longer body", async () => {
    expect(await readBodyText(new Response("héllo"), 6)).toBe("héllo");
    await expect(readBodyText(new Response("héllo!"), 6)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it("reads the head of an error body as JSON when it parses, else as text, and never fails", async () => {
    expect(await readErrorBody(new Response('{"error":"nope"}'))).toEqual({ error: "nope" });
    expect(await readErrorBody(new Response("x".repeat(100)), 10)).toBe("x".repeat(10));
    const { stream, cancelled } = webSource(100_000, KiB);
    expect(await readErrorBody(new Response(stream), 2 * KiB)).toHaveLength(2 * KiB);
    expect(cancelled()).toBe(true);
    const broken = new ReadableStream({
      pull() {
        throw new Error("reset");
      },
    });
    expect(await readErrorBody(new Response(broken))).toBe("");
  });
});
