/** A local JWKS endpoint on a real socket that records every request it serves. */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { JSONWebKeySet } from "jose";

export interface JwksServer extends AsyncDisposable {
  readonly url: string;
  /** Paths requested so far, in order. */
  readonly requests: string[];
  /** The key set served from now on. */
  keys: JSONWebKeySet;
  /** Status served instead of the keys when set. */
  failWith: number | undefined;
  close(): Promise<void>;
}

export async function startJwksServer(keys: JSONWebKeySet = { keys: [] }): Promise<JwksServer> {
  const requests: string[] = [];
  const state = { keys, failWith: undefined as number | undefined };
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "");
    if (state.failWith !== undefined) {
      res.writeHead(state.failWith).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(state.keys));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get keys() {
      return state.keys;
    },
    set keys(value) {
      state.keys = value;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(value) {
      state.failWith = value;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
