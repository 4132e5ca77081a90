/**
 * The base of every platform service client: its connection (base URL,
 * credentials, resilience policy, owned connections; service-connection.ts),
 * and closing it. A client says only what is its own: its calls.
 */
import { type ServiceClientOptions, ServiceConnection, type ServiceDescription } from "./service-connection.js";

export abstract class ServiceClient<Paths extends {}> implements AsyncDisposable {
  /** The service's base URL: the `baseUrl` option, else the service's environment variable. */
  readonly baseUrl: string;
  /** @internal What the client's calls go through. */
  protected readonly connection: ServiceConnection<Paths>;

  protected constructor(service: ServiceDescription, options: ServiceClientOptions) {
    this.connection = new ServiceConnection<Paths>(service, options);
    this.baseUrl = this.connection.baseUrl;
  }

  /** Whether `close()` has been called. */
  get closed(): boolean {
    return this.connection.closed;
  }

  /** Releases the connections the client owns (never a `fetch` given in the options); calls after it throw. */
  async close(): Promise<void> {
    await this.connection.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
