/**
 * Connect-time SSRF guard (Node only). Checking a URL once is not enough: a
 * host can resolve to a public address when checked and to 127.0.0.1 when
 * connected to (DNS rebinding), and a redirect can point anywhere. So every
 * connection the guarded dispatcher opens, redirects included, checks the
 * host against the suffix allowlist and connects only to addresses its own
 * `lookup` resolved and checked: the address that was checked is the
 * address that is dialled.
 *
 * `createGuardedLookup` is the same check as a `net.connect` lookup, for
 * transports that take one (gRPC through `@connectrpc/connect-node`).
 */
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { normalizeHostname } from "../runtime/host-suffix.js";
import { type AgentUrlPolicy, checkAddress, checkHostSuffix, resolveCheckedAddresses } from "./agent-url.js";
import { findSdkError } from "./transport-failure.js";

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `net.connect` / `tls.connect` / `http2.connect` `lookup` that refuses what the policy refuses. */
export function createGuardedLookup(policy: AgentUrlPolicy): LookupFunction {
  const guarded = (host: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => {
    const hostname = normalizeHostname(host);
    Promise.resolve()
      .then(() => {
        checkHostSuffix(hostname, policy.allowedHostSuffixes, host);
        return resolveCheckedAddresses(hostname, policy, host);
      })
      .then(
        (all) => {
          const family = options.family === 4 || options.family === 6 ? options.family : undefined;
          const usable = family === undefined ? all : all.filter((a) => a.family === family);
          const first = usable[0];
          if (first === undefined) {
            const error: NodeJS.ErrnoException = new Error(`No IPv${family} address for ${hostname}`);
            error.code = "ENOTFOUND";
            callback(error, "");
          } else if (options.all) callback(null, [...usable]);
          else callback(null, first.address, first.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, ""),
      );
  };
  return guarded as unknown as LookupFunction;
}

/** undici Agent options; `connect` may only be options (the guard is the connector). */
export type GuardedDispatcherOptions = Omit<Agent.Options, "connect"> & { connect?: buildConnector.BuildOptions };

/** An undici dispatcher whose every connection passes the policy. */
export function createGuardedDispatcher(policy: AgentUrlPolicy, options: GuardedDispatcherOptions = {}): Agent {
  const connect = buildConnector({ ...options.connect, lookup: createGuardedLookup(policy) });
  return new Agent({
    ...options,
    connect(opts, callback) {
      const hostname = normalizeHostname(opts.hostname);
      const url = `${opts.protocol}//${opts.host}`;
      try {
        // net.connect skips `lookup` for IP literals, so those are checked here.
        checkHostSuffix(hostname, policy.allowedHostSuffixes, url);
        if (isIP(hostname) && !policy.allowPrivateIps) checkAddress(hostname, hostname, url);
      } catch (error) {
        callback(error as Error, null);
        return;
      }
      connect(opts, callback);
    },
  });
}

/** A fetch that owns its dispatcher: `close()` shuts its connections. */
export interface GuardedFetch {
  readonly fetch: typeof fetch;
  readonly dispatcher: Agent;
  close(): Promise<void>;
}

/**
 * `fetch` over a guarded dispatcher (undici's fetch; Node's global fetch
 * cannot take this undici's dispatcher). A refusal surfaces as the guard's
 * own `AgentUrlRejectedError`, not as a generic "fetch failed", so callers
 * never mistake it for a retryable connection error.
 */
export function createGuardedFetch(policy: AgentUrlPolicy, options: GuardedDispatcherOptions = {}): GuardedFetch {
  const dispatcher = createGuardedDispatcher(policy, options);
  const guardedFetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    try {
      return (await undiciFetch(input, { ...(init as object), dispatcher })) as unknown as Response;
    } catch (error) {
      throw findSdkError(error) ?? error;
    }
  };
  return {
    fetch: guardedFetch as typeof fetch,
    dispatcher,
    close: () => dispatcher.destroy(),
  };
}
