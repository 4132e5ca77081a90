/**
 * Name resolution without DNS: a table from host names to addresses (or a
 * sequence of answers, one per lookup, to simulate DNS rebinding), recording
 * every lookup.
 */
import { isIP } from "node:net";
import type { ResolveHost } from "../../src/http/agent-url.js";

type Answer = string | readonly string[];

export interface FakeDns {
  resolve: ResolveHost;
  /** Every host looked up, in order. */
  readonly lookups: string[];
}

export function fakeDns(table: Record<string, Answer | { sequence: readonly Answer[] }>): FakeDns {
  const lookups: string[] = [];
  const counts = new Map<string, number>();
  const resolve: ResolveHost = async (hostname) => {
    lookups.push(hostname);
    const entry = table[hostname];
    if (entry === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    }
    let answer: Answer;
    if (typeof entry === "object" && "sequence" in entry) {
      const n = counts.get(hostname) ?? 0;
      counts.set(hostname, n + 1);
      answer = entry.sequence[Math.min(n, entry.sequence.length - 1)] as Answer;
    } else {
      answer = entry as Answer;
    }
    return (typeof answer === "string" ? [answer] : answer).map((address) => ({ address, family: isIP(address) }));
  };
  return { resolve, lookups };
}
