/**
 * A plain HTTP server for answers no spec allows (HTML pages, garbage,
 * endless bodies, wrong content types), where a contract server would
 * refuse to send them. Every request is counted; `close()` drops open
 * connections, so an endless answer ends with the test.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RawServer {
  readonly url: string;
  /** Requests received, in order (method, path, headers, body text). */
  readonly requests: { method: string; path: string; headers: IncomingMessage["headers"]; body: string }[];
  close(): Promise<void>;
}

export async function startRawServer(
  answer: (request: IncomingMessage, response: ServerResponse, body: string) => void,
): Promise<RawServer> {
  const requests: RawServer["requests"] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers, body });
      answer(request, response, body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/** Writes `chunk` until the client goes away: an answer that never ends. */
export function writeForever(response: ServerResponse, chunk: string): void {
  const write = () => {
    while (!response.destroyed && response.write(chunk)) {
      /* fill the socket buffer */
    }
    if (!response.destroyed) response.once("drain", write);
  };
  response.on("close", () => response.removeAllListeners("drain"));
  write();
}
