/**
 * The setup the service client suites share: a contract server of one spec
 * accepting one bearer token, a client of it made with that token, and both
 * closed after each test (the client first). Call once, at the top level of
 * a test file.
 */
import { afterEach } from "vitest";
import { BearerTokenAuth } from "../../src/http/auth.js";
import type { ServiceClientOptions } from "../../src/http/service-connection.js";
import { type ContractServer, type OperationHandler, startContractServer } from "./contract-server.js";

export function serviceClientHarness<C extends { close(): Promise<void> }>(
  spec: string,
  token: string,
  makeClient: (options: ServiceClientOptions) => C,
): (
  handlers: Record<string, OperationHandler>,
  options?: ServiceClientOptions,
) => Promise<{ server: ContractServer; client: C }> {
  let server: ContractServer | undefined;
  let client: C | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
  });
  return async (handlers, options = {}) => {
    server = await startContractServer({ spec, bearerToken: token, handlers });
    client = makeClient({ baseUrl: server.url, auth: new BearerTokenAuth(token), ...options });
    return { server, client };
  };
}
