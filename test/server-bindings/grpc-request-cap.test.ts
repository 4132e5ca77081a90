/**
 * The gRPC unary fast path caps a request the way the HTTP bindings cap a
 * body: one envelope of the largest allowed message in total, refused as soon
 * as it is passed (or the envelope header says it will be), without reading
 * or keeping the rest; and a large message is read in linear time.
 */
import { once } from "node:events";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { A2AService, SendMessageRequestSchema, SendMessageResponseSchema } from "../../gen/a2a_pb.js";
import { createGrpcNodeHandler } from "../../src/server/grpc/grpc-server.js";
import { HandlerDouble } from "./support/handler-double.js";

const SEND_MESSAGE = `/${A2AService.typeName}/SendMessage`;
const GRPC = { "content-type": "application/grpc", te: "trailers", "a2a-version": "1.0" };
const MiB = 1024 * 1024;

function envelopeHeader(declaredLength: number): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt32BE(declaredLength, 1);
  return header;
}

interface Outcome {
  readonly grpcStatus: string | undefined;
  readonly grpcMessage: string;
  /** Bytes of the request the server let the client send (HTTP/2 flow control) before answering. */
  readonly sent: number;
}

/**
 * Sends `head`, then `chunk` again and again (honouring flow control) until
 * the server answers or `limit` bytes are sent, then ends the request.
 */
function sendUntilAnswered(
  session: http2.ClientHttp2Session,
  head: Buffer,
  chunk: Buffer,
  limit: number,
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ":method": "POST", ":path": SEND_MESSAGE, ...GRPC });
    let sent = 0;
    let answered = false;
    let trailers: http2.IncomingHttpHeaders = {};
    stream.on("response", (headers) => {
      answered = true;
      trailers = headers;
    });
    stream.on("trailers", (t) => {
      trailers = t;
    });
    stream.on("data", () => undefined);
    stream.on("error", () => undefined);
    stream.on("close", () =>
      resolve({
        grpcStatus: trailers["grpc-status"] as string | undefined,
        grpcMessage: decodeURIComponent((trailers["grpc-message"] as string | undefined) ?? ""),
        sent,
      }),
    );
    const pump = () => {
      while (!answered && !stream.destroyed && sent < limit) {
        sent += chunk.byteLength;
        if (!stream.write(chunk)) {
          stream.once("drain", pump);
          return;
        }
      }
      if (!stream.destroyed && !stream.writableEnded) stream.end();
    };
    stream.write(head, (error) => (error ? reject(error) : undefined));
    sent = head.byteLength;
    pump();
  });
}

let double: HandlerDouble;
let h2: http2.Http2Server;
let session: http2.ClientHttp2Session;

async function serve(maxMessageBytes?: number) {
  h2 = http2.createServer(createGrpcNodeHandler(double.handler, maxMessageBytes ? { maxMessageBytes } : {}));
  h2.listen(0, "127.0.0.1");
  await once(h2, "listening");
  session = http2.connect(`http://127.0.0.1:${(h2.address() as AddressInfo).port}`);
}

beforeEach(() => {
  double = new HandlerDouble();
});

afterEach(async () => {
  session?.destroy();
  await new Promise((resolve) => h2.close(resolve));
});

describe("gRPC unary fast path: the total request cap", () => {
  it("refuses a body that declares 10 bytes and keeps sending, without reading what is past the cap", async () => {
    await serve(1 * MiB);
    const outcome = await sendUntilAnswered(session, envelopeHeader(10), Buffer.alloc(64 * 1024, 0x41), 64 * MiB);
    expect(outcome.grpcStatus).toBe("8"); // RESOURCE_EXHAUSTED
    expect(outcome.grpcMessage).toContain("readMaxBytes 1048576");
    // Flow control lets the client run ahead of what the server reads by a window or two, never by 64 MiB.
    expect(outcome.sent).toBeLessThan(4 * MiB);
    expect(double.calls).toHaveLength(0);
  });

  it("refuses an envelope that declares more than the cap once its header is in, reading nothing more", async () => {
    await serve(1 * MiB);
    const outcome = await sendUntilAnswered(session, envelopeHeader(64 * MiB), Buffer.alloc(64 * 1024, 0x41), 64 * MiB);
    expect(outcome.grpcStatus).toBe("8");
    expect(outcome.grpcMessage).toBe(`message size ${64 * MiB} is larger than configured readMaxBytes ${1 * MiB}`);
    expect(outcome.sent).toBeLessThan(4 * MiB);
    expect(double.calls).toHaveLength(0);
  });

  it("answers an 8 MB message sent in small chunks, under the default cap", async () => {
    await serve();
    double.on("SendMessage", () =>
      create(SendMessageResponseSchema, { payload: { case: "task", value: { id: "t-big", contextId: "c-1" } } }),
    );
    const message = toBinary(
      SendMessageRequestSchema,
      create(SendMessageRequestSchema, {
        message: {
          messageId: "m-1",
          role: 1,
          parts: [{ content: { case: "text", value: "x".repeat(8 * 1000 * 1000) } }],
        },
      }),
    );
    const body = Buffer.concat([envelopeHeader(message.byteLength), message]);
    const started = performance.now();
    const answer = await new Promise<{ status: string | undefined; bytes: number }>((resolve, reject) => {
      const stream = session.request({ ":method": "POST", ":path": SEND_MESSAGE, ...GRPC });
      let bytes = 0;
      let trailers: http2.IncomingHttpHeaders = {};
      stream.on("trailers", (t) => {
        trailers = t;
      });
      stream.on("data", (chunk: Buffer) => {
        bytes += chunk.byteLength;
      });
      stream.on("error", reject);
      stream.on("close", () => resolve({ status: trailers["grpc-status"] as string | undefined, bytes }));
      let offset = 0;
      const pump = () => {
        while (offset < body.byteLength) {
          const chunk = body.subarray(offset, offset + 16 * 1024);
          offset += chunk.byteLength;
          if (!stream.write(chunk)) {
            stream.once("drain", pump);
            return;
          }
        }
        stream.end();
      };
      pump();
    });
    console.log(`8 MB gRPC message answered in ${Math.round(performance.now() - started)} ms`);
    expect(answer.status).toBe("0");
    expect(answer.bytes).toBeGreaterThan(5);
    expect(double.last().request).toMatchObject({ message: { messageId: "m-1" } });
  });
});
