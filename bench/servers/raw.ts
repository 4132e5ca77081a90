/**
 * Bench ceiling: bare node:http, no framework and no A2A handler. What any
 * HTTP JSON service on this machine costs at least. Prints its port on stdout.
 *
 * - A call (JSON-RPC or an HTTP+JSON body) is read whole, `JSON.parse`d, and
 *   answered with an envelope holding the request's params (a REST body,
 *   which has none, is echoed whole). The reply is written as ours are
 *   (docs/decisions.md B25): with its Content-Length, ended at the end of the
 *   event-loop turn together with the turn's other replies, through the same
 *   `endAtTurnEnd`. A ceiling that wrote chunked replies one at a time paid a
 *   wake-up of the client per reply and was no ceiling for ours.
 * - `SendStreamingMessage` (the text of its first part: an event count) is
 *   answered with that many artifact-update events between a task and a
 *   completed status, each `JSON.stringify`d into an SSE event and written
 *   in 64 KB chunks, waiting for `drain` when the socket is full.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { endAtTurnEnd } from "../../src/server/turn-end-writes.js";

const CHUNK_CHARS = 64 * 1024;

interface Call {
  readonly id?: unknown;
  readonly method?: string;
  readonly params?: { readonly message?: { readonly parts?: readonly { readonly text?: string }[] } };
}

async function stream(call: Call, res: http.ServerResponse): Promise<void> {
  const events = Number(call.params?.message?.parts?.[0]?.text ?? "0");
  const ids = { taskId: "raw-task", contextId: "raw-context" };
  const frame = (result: unknown) => `data: ${JSON.stringify({ jsonrpc: "2.0", id: call.id, result })}\n\n`;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let chunk = frame({ task: { id: ids.taskId, contextId: ids.contextId, status: { state: "TASK_STATE_WORKING" } } });
  for (let i = 0; i < events; i++) {
    chunk += frame({
      artifactUpdate: {
        ...ids,
        artifact: { artifactId: "story", parts: [{ text: `chunk ${i} of the story goes here` }] },
        append: i > 0,
        lastChunk: i === events - 1,
      },
    });
    if (chunk.length >= CHUNK_CHARS) {
      if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
      chunk = "";
    }
  }
  res.end(chunk + frame({ statusUpdate: { ...ids, status: { state: "TASK_STATE_COMPLETED" } } }));
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const call = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Call;
    if (call.method === "SendStreamingMessage") {
      void stream(call, res);
      return;
    }
    // A JSON-RPC call echoes its params; an HTTP+JSON body (no params) is echoed whole.
    const body = JSON.stringify({ jsonrpc: "2.0", id: call.id, result: { echo: call.params ?? call } });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    void endAtTurnEnd(res, body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
