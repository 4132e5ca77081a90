/**
 * Bench ceiling: a bare node:http JSON echo (read the body, JSON.parse,
 * JSON.stringify an envelope holding the request's message back). What any
 * HTTP JSON service on this machine costs at least. Prints its port on stdout.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const request = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    // A JSON-RPC call echoes its params; an HTTP+JSON body (no params) is echoed whole.
    const body = JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { echo: request.params ?? request } });
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
