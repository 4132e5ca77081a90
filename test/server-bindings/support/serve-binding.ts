/**
 * Serves an `HttpBinding` on a real socket for the binding tests, with the
 * least adapter that honours the `HttpRequestLike`/`HttpReply` contract
 * (capped body, abort on disconnect, `return()` on a dropped stream).
 */
import { once } from "node:events";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { BodyTooLargeError, type HttpBinding, type HttpRequestLike } from "../../../src/server/http-exchange.js";

export interface ServedBinding extends AsyncDisposable {
  readonly url: string;
}

function readBody(req: http.IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        req.removeAllListeners("data");
        req.resume();
        reject(new BodyTooLargeError(maxBytes));
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function serveBinding(binding: HttpBinding): Promise<ServedBinding> {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://binding.test");
    const aborter = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) aborter.abort();
    });
    const request: HttpRequestLike = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      signal: aborter.signal,
      body: (maxBytes) => readBody(req, maxBytes),
    };
    const reply = await binding.handle(request);
    if (!reply) {
      res.writeHead(404, { "content-type": "text/plain" }).end("no route");
      return;
    }
    res.writeHead(reply.status, reply.headers);
    if (reply.kind === "body") {
      res.end(reply.body);
      return;
    }
    const chunks = reply.chunks[Symbol.asyncIterator]();
    const stop = () => void chunks.return?.();
    res.on("close", stop);
    for (;;) {
      const next = await chunks.next();
      if (next.done) break;
      if (!res.write(next.value)) await Promise.race([once(res, "drain"), once(res, "close")]);
    }
    res.off("close", stop);
    res.end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    [Symbol.asyncDispose]: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
