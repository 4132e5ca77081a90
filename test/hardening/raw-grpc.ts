/**
 * One gRPC call sent by hand over HTTP/2, so an attack goes out exactly as
 * written (a malformed body, a reader that stops): the unary fast path's
 * shape (no deadline, identity encoding), the messages of the answer as they
 * arrive, and its status. Free of vitest, so child-process fixtures use it too.
 */
import http2 from "node:http2";

export interface RawGrpcOptions {
  readonly headers?: Record<string, string>;
  /** Each message of the answer, as its bytes. */
  readonly onMessage?: (bytes: Uint8Array) => void;
  /** Stop reading the answer after its first bytes until this settles. */
  readonly pauseUntil?: Promise<unknown>;
}

export interface GrpcStatus {
  readonly status: string | undefined;
  readonly message: string;
}

/** Length-prefixed gRPC messages, split out of the bytes as they arrive. */
function envelopes(onMessage: (bytes: Uint8Array) => void): (chunk: Buffer) => void {
  let buffered: Buffer = Buffer.alloc(0);
  return (chunk) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    let at = 0;
    while (buffered.length - at >= 5) {
      const length = buffered.readUInt32BE(at + 1);
      if (buffered.length - at - 5 < length) break;
      onMessage(buffered.subarray(at + 5, at + 5 + length));
      at += 5 + length;
    }
    buffered = buffered.subarray(at);
  };
}

/** Calls `method` of `lf.a2a.v1.A2AService` at `target` with `body` as the one request message. */
export function rawGrpcCall(
  target: string,
  method: string,
  body: Uint8Array,
  options: RawGrpcOptions = {},
): Promise<GrpcStatus> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://${target}`);
    session.on("error", reject);
    const stream = session.request({
      ":method": "POST",
      ":path": `/lf.a2a.v1.A2AService/${method}`,
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
      ...options.headers,
    });
    let status: string | undefined;
    let message = "";
    const read = (headers: http2.IncomingHttpHeaders) => {
      status ??= headers["grpc-status"] as string | undefined;
      message ||= decodeURIComponent((headers["grpc-message"] as string | undefined) ?? "");
    };
    stream.on("response", read);
    stream.on("trailers", read);
    const { pauseUntil, onMessage } = options;
    if (pauseUntil) {
      stream.once("data", () => {
        stream.pause();
        void pauseUntil.then(() => stream.resume());
      });
    }
    if (onMessage) stream.on("data", envelopes(onMessage));
    else stream.resume();
    stream.on("error", reject);
    stream.on("close", () => {
      session.close();
      resolve({ status, message });
    });
    const envelope = Buffer.alloc(5 + body.byteLength);
    envelope.writeUInt32BE(body.byteLength, 1);
    envelope.set(body, 5);
    stream.end(envelope);
  });
}
