/** A minimal A2A JSON-RPC agent on a real socket: answers SendMessage with one agent message echoing the text. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type LocalServer, startHttpServer } from "./local-network.js";

export interface EchoAgent extends LocalServer {
  /** The JSON-RPC request bodies received. */
  readonly calls: { method: string; params: Record<string, unknown>; headers: IncomingMessage["headers"] }[];
}

export async function startEchoAgent(): Promise<EchoAgent> {
  const calls: EchoAgent["calls"] = [];
  const server = await startHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        id: number | string;
        method: string;
        params: { message?: { parts?: { text?: string }[] } };
      };
      calls.push({ method: request.method, params: request.params, headers: req.headers });
      const text = request.params.message?.parts?.[0]?.text ?? "";
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: request.id,
          result: { message: { messageId: "m-1", role: "ROLE_AGENT", parts: [{ text: `echo: ${text}` }] } },
        }),
      );
    });
  });
  return Object.assign(server, { calls });
}
