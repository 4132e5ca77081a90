/**
 * Closing a node:http server without cutting what it is answering (the HTTP
 * half of `AgentServer.close({ drainMs })`). Draining stops accepting: the
 * port closes, idle keep-alive connections close, and a request that still
 * arrives on an open connection is refused with 503 and `Connection: close`
 * (another replica can take it). Requests in flight are answered as usual,
 * each with `Connection: close` (or, for a stream whose head went out
 * already, its connection closed once it is finished), so the server's
 * connections end one by one as their last answer does.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { NodeRequestListener } from "./node-adapter.js";

const SHUTTING_DOWN = "The agent is shutting down";

export class HttpDrain {
  readonly #server: Server;
  /** Responses being answered (a Set costs less per request than a listener on each). */
  readonly #inFlight = new Set<ServerResponse>();
  #draining = false;

  constructor(server: Server) {
    this.#server = server;
  }

  /** `serve`, counting the requests in flight, and refusing new ones once draining. */
  listener(serve: NodeRequestListener): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      if (this.#draining) {
        res
          .writeHead(503, { "content-type": "text/plain", connection: "close", "retry-after": "1" })
          .end(SHUTTING_DOWN);
        return;
      }
      this.#inFlight.add(res);
      const done = () => this.#inFlight.delete(res);
      void serve(req, res).then(done, done);
    };
  }

  /** Stops accepting; every connection then ends after its last answer. */
  start(): void {
    this.#draining = true;
    this.#server.close();
    for (const res of this.#inFlight) {
      if (!res.headersSent) res.setHeader("connection", "close");
      else if (!res.writableFinished) res.once("finish", () => this.#server.closeIdleConnections());
    }
    this.#server.closeIdleConnections();
  }
}
