/**
 * Bench server for client rows: answers every JSON-RPC SendStreamingMessage
 * with a pre-encoded stream (one Task, N artifact updates, a COMPLETED
 * status; N is the message's text), so the server costs next to nothing and
 * a client's throughput is its own. Prints its port on stdout.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

const CHUNK_CHARS = 64 * 1024;
const cache = new Map<number, string[]>();

/** The stream's results as JSON fragments; the envelope (with the request's id) is added per request. */
function results(events: number): string[] {
  const cached = cache.get(events);
  if (cached) return cached;
  const ids = { taskId: "bench-task", contextId: "bench-context" };
  const out = [
    JSON.stringify({ task: { id: ids.taskId, contextId: ids.contextId, status: { state: "TASK_STATE_WORKING" } } }),
  ];
  for (let i = 0; i < events; i++) {
    out.push(
      JSON.stringify({
        artifactUpdate: {
          ...ids,
          artifact: { artifactId: "out", parts: [{ text: `token ${i} of the benchmark stream ` }] },
          append: i > 0,
        },
      }),
    );
  }
  out.push(JSON.stringify({ statusUpdate: { ...ids, status: { state: "TASK_STATE_COMPLETED" } } }));
  cache.set(events, out);
  return out;
}

const server = http.createServer(async (req, res) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  const request = JSON.parse(body) as { id: unknown; params: { message: { parts: { text?: string }[] } } };
  const id = JSON.stringify(request.id);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let chunk = "";
  for (const result of results(Number(request.params.message.parts[0]?.text ?? "0"))) {
    chunk += `data: {"jsonrpc":"2.0","id":${id},"result":${result}}\n\n`;
    if (chunk.length >= CHUNK_CHARS) {
      if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
      chunk = "";
    }
  }
  res.end(chunk);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
