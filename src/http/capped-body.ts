/**
 * Reading a whole body with a cap on its size: every request body the server
 * reads (node:http, Fetch, the gRPC fast path) and every reply body the
 * client, discovery and the platform clients read. A body is refused as soon
 * as it passes the cap, or before a byte is read when the length it declares
 * says it will; nothing past the cap is kept. Chunks are kept as they arrive
 * and joined once at the end, so reading is linear in the body's size.
 */
import type { Readable } from "node:stream";
import { bodyChunks } from "../a2a/body-chunks.js";

export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
  /**
   * @param maxBytes the cap that was passed.
   * @param declaredLength the length the body declared for itself, when that is what refused it.
   */
  constructor(
    readonly maxBytes: number,
    readonly declaredLength?: number,
  ) {
    super(`Body exceeds ${maxBytes} bytes`);
  }
}

/**
 * The sender went away before the whole body arrived: a client that aborted
 * its upload, a connection or HTTP/2 stream reset. Nobody is left to answer,
 * and nothing is wrong with the reader.
 */
export class BodyAbortedError extends Error {
  override readonly name = "BodyAbortedError";
  constructor(cause?: unknown) {
    super("The sender went away before the whole body arrived", cause === undefined ? undefined : { cause });
  }
}

export interface BodyLimit {
  /** Bytes accepted at most. */
  readonly maxBytes: number;
  /** The length the sender declared (`Content-Length`); over the cap, nothing is read. */
  readonly declaredLength?: number | undefined;
  /**
   * The whole body's length as its own first bytes declare it (a gRPC
   * envelope header), or undefined while too few have arrived. Over the cap,
   * the body is refused as soon as those bytes are in.
   */
  readonly lengthFromHead?: ((head: Uint8Array) => number | undefined) | undefined;
}

/** The chunks of one body, up to its cap. */
class CappedBytes {
  readonly #limit: BodyLimit;
  #chunks: Uint8Array[] = [];
  #size = 0;
  #headRead: boolean;

  constructor(limit: BodyLimit) {
    const declared = limit.declaredLength;
    if (declared !== undefined && declared > limit.maxBytes) throw new BodyTooLargeError(limit.maxBytes, declared);
    this.#limit = limit;
    this.#headRead = limit.lengthFromHead === undefined;
  }

  /** Keeps `chunk`, or throws BodyTooLargeError (keeping nothing) when it takes the body past the cap. */
  add(chunk: Uint8Array): void {
    const size = this.#size + chunk.byteLength;
    if (size > this.#limit.maxBytes) throw new BodyTooLargeError(this.#limit.maxBytes);
    this.#chunks.push(chunk);
    this.#size = size;
    if (!this.#headRead) this.#readHead();
  }

  /**
   * Adds what of `chunk` fits under the cap; false once the body is full
   * (the rest of `chunk` is dropped).
   */
  addTruncated(chunk: Uint8Array): boolean {
    const room = this.#limit.maxBytes - this.#size;
    if (chunk.byteLength <= room) {
      this.add(chunk);
      return true;
    }
    this.add(chunk.subarray(0, room));
    return false;
  }

  /** The body so far, joined once (and kept joined, so asking again costs nothing). */
  bytes(): Uint8Array {
    if (this.#chunks.length === 1) return this.#chunks[0] as Uint8Array;
    const out = new Uint8Array(this.#size);
    let offset = 0;
    for (const chunk of this.#chunks) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    this.#chunks = [out];
    return out;
  }

  #readHead(): void {
    const declared = this.#limit.lengthFromHead?.(this.bytes());
    if (declared === undefined) return;
    this.#headRead = true;
    if (declared > this.#limit.maxBytes) throw new BodyTooLargeError(this.#limit.maxBytes, declared);
  }
}

export interface NodeBodyLimit extends BodyLimit {
  /**
   * The whole body is already in the stream's buffer (a node:http request
   * whose buffered length is its `Content-Length`): it is taken in one
   * `read()`, without listeners, flowing mode or the ticks they take.
   */
  readonly arrived?: boolean | undefined;
}

/**
 * A node request body (`IncomingMessage`, `Http2ServerRequest`) read whole.
 * Event listeners rather than an async iterator: this is every request's
 * path, and an iterator costs promises per chunk. On a refusal the stream is
 * paused and left unread; the caller ends the exchange (a reply with
 * `Connection: close`, or the end of an HTTP/2 stream). A stream that fails
 * or closes before its end is `BodyAbortedError`: a node request stream only
 * fails when its sender goes away.
 */
export function readNodeBody(source: Readable, limit: NodeBodyLimit): Promise<Uint8Array> {
  let body: CappedBytes;
  try {
    body = new CappedBytes(limit);
    if (limit.arrived && source.readableFlowing === null) {
      const bytes = source.read() as Uint8Array | null;
      if (bytes !== null) body.add(bytes);
      return Promise.resolve(body.bytes());
    }
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      source.off("data", onData);
      source.off("end", onEnd);
      source.off("error", onError);
      source.off("close", onClose);
    };
    const onData = (chunk: Uint8Array) => {
      try {
        body.add(chunk);
      } catch (error) {
        cleanup();
        source.pause();
        reject(error);
      }
    };
    const onEnd = () => {
      cleanup();
      resolve(body.bytes());
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new BodyAbortedError(error));
    };
    const onClose = () => {
      cleanup();
      reject(new BodyAbortedError());
    };
    source.on("data", onData);
    source.once("end", onEnd);
    source.once("error", onError);
    source.once("close", onClose);
  });
}

/** A Fetch body read whole; a refusal cancels it, which releases the connection. */
export async function readStreamBody(body: ReadableStream<Uint8Array> | null, limit: BodyLimit): Promise<Uint8Array> {
  const bytes = new CappedBytes(limit);
  if (body === null) return new Uint8Array();
  for await (const chunk of bodyChunks(body)) bytes.add(chunk);
  return bytes.bytes();
}

/**
 * A response's body as text, refused with BodyTooLargeError past `maxBytes`.
 * Its `Content-Length` is not trusted to refuse early: fetch hands over the
 * body decoded, and the header counts the encoded bytes.
 */
export async function readBodyText(response: Response, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readStreamBody(response.body, { maxBytes }));
}

/**
 * The first `maxBytes` of a body; the rest is discarded unread (the body is
 * cancelled, which releases the connection). Empty when the body cannot be
 * read: a caller reading a head only reads it for a message.
 */
export async function readBodyHead(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  const bytes = new CappedBytes({ maxBytes });
  try {
    if (body !== null) for await (const chunk of bodyChunks(body)) if (!bytes.addTruncated(chunk)) break;
  } catch {
    return new Uint8Array();
  }
  return bytes.bytes();
}

/** Bytes of an error body read for its message; the rest is discarded unread. */
export const ERROR_BODY_BYTES = 64 * 1024;

/**
 * `response` with at most the first `maxBytes` of its body, for a reader
 * (openapi-fetch, `openai`) that would read an error answer whole.
 */
export async function withBodyHead(response: Response, maxBytes = ERROR_BODY_BYTES): Promise<Response> {
  const body = await readBodyHead(response.body, maxBytes);
  return new Response(body as Uint8Array<ArrayBuffer>, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * An error answer's body, for the message and details of the error it
 * becomes: its first `maxBytes` as JSON when they parse, else as text ("" when
 * the body cannot be read). Never fails: the status already says what failed.
 */
export async function readErrorBody(response: Response, maxBytes = ERROR_BODY_BYTES): Promise<unknown> {
  const text = new TextDecoder().decode(await readBodyHead(response.body, maxBytes));
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
