/** Serves HTTP bindings on a real socket (port 0) through the SDK's `node:http` adapter. */
import { once } from "node:events";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeListener } from "../../../src/node/node-adapter.js";
import type { HttpBinding } from "../../../src/server/http-exchange.js";

export interface ServedBinding extends AsyncDisposable {
  readonly url: string;
}

export async function serveBinding(...bindings: HttpBinding[]): Promise<ServedBinding> {
  const server = http.createServer(createNodeListener(() => bindings));
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
