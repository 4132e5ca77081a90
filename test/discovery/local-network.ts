/**
 * Real sockets for the SSRF tests. `startHttpServer` listens on 127.0.0.1
 * and records what reaches it. `routePublicAddress` stands in for the
 * internet: a connection the guard allowed to a public address is delivered
 * to the local server instead, so a test can make a first hop that the guard
 * must let through (it sees the public address) and a second hop it must
 * refuse. It rewrites only the address `net.connect` dials after the guarded
 * lookup has checked it; the guard itself runs unchanged.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo, LookupFunction } from "node:net";
import { vi } from "vitest";

export interface LocalServer {
  readonly port: number;
  readonly requests: IncomingMessage[];
  close(): Promise<void>;
}

export async function startHttpServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.end("ok"),
): Promise<LocalServer> {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

type NetModule = typeof import("node:net");
type LookupCallback = (
  error: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/** Until `restore()`, sockets the guarded lookup resolved to `publicAddress` connect to 127.0.0.1 instead. */
export function routePublicAddress(publicAddress: string): { restore(): void } {
  const net = createRequire(import.meta.url)("node:net") as NetModule;
  const original = net.connect;
  const remap = (address: string) => (address === publicAddress ? "127.0.0.1" : address);
  const spy = vi.spyOn(net, "connect").mockImplementation(((options: Record<string, unknown>, ...rest: unknown[]) => {
    const lookup = options?.lookup as LookupFunction | undefined;
    if (typeof options !== "object" || options === null || lookup === undefined) {
      return (original as (...args: unknown[]) => unknown).call(net, options, ...rest);
    }
    const rerouted = (hostname: string, lookupOptions: object, callback: LookupCallback) =>
      (lookup as unknown as (h: string, o: object, cb: LookupCallback) => void)(
        hostname,
        lookupOptions,
        (error, address, family) => {
          if (error) return callback(error, address, family);
          if (Array.isArray(address))
            return callback(
              null,
              address.map((a) => ({ ...a, address: remap(a.address) })),
            );
          callback(null, remap(address), family);
        },
      );
    return (original as (...args: unknown[]) => unknown).call(net, { ...options, lookup: rerouted }, ...rest);
  }) as unknown as NetModule["connect"]);
  return { restore: () => spy.mockRestore() };
}
