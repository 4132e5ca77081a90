/**
 * A raw SSE reader: POSTs one streaming call and counts events as bytes
 * arrive (an event ends at a blank line), with no JSON decoding, so the
 * number measures the server, not a client library.
 */
import http from "node:http";

export interface StreamMeasure {
  readonly events: number;
  readonly ms: number;
}

export function readStream(url: string, body: string, headers: Record<string, string> = {}): Promise<StreamMeasure> {
  const target = new URL(url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
      },
      (res) => {
        if (!res.headers["content-type"]?.startsWith("text/event-stream")) {
          reject(new Error(`not a stream: ${res.statusCode} ${res.headers["content-type"]}`));
          res.resume();
          return;
        }
        let events = 0;
        let tail = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          const text = tail + chunk;
          let at = text.indexOf("\n\n");
          let last = 0;
          while (at >= 0) {
            events++;
            last = at + 2;
            at = text.indexOf("\n\n", last);
          }
          tail = text.slice(last);
        });
        res.on("end", () => resolve({ events, ms: performance.now() - started }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
