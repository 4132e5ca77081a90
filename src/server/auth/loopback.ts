/**
 * Safe by default: an agent built without an `auth` mode authenticates
 * nobody, so it answers only callers on its own machine. `listen()` refuses
 * to bind anything but a loopback address, the Fetch handler (which cannot
 * see who is calling) refuses to be made, and the node and gRPC handlers
 * refuse every call whose socket is not a loopback one. Choosing a mode,
 * `"none"` included, lifts all three.
 */
import { BlockList, isIP } from "node:net";
import { NovaOSError } from "../../errors/novaos-errors.js";

/** 127.0.0.0/8 and ::1; IPv4-mapped IPv6 addresses are checked against the IPv4 block. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Whether `address` (as a socket reports it) is a loopback address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** Whether binding `host` serves this machine only: `localhost`, or a loopback address (IPv6 in brackets or not). */
export function isLoopbackHost(host: string): boolean {
  return host.toLowerCase() === "localhost" || isLoopbackAddress(host.replace(/^\[(.*)\]$/, "$1"));
}

/** What to set, said wherever an agent without an auth mode refuses to serve. */
export const CHOOSE_AN_AUTH_MODE =
  'set new AgentBuilder({ auth }): { mode: "executionToken", verifier } inside NovaOS; { mode: "bearer" }, ' +
  '{ mode: "apiKey" } or { mode: "custom" } outside it; "trustedProxy" behind a proxy that authenticates callers; ' +
  'or "none" to serve without authentication';

/** An agent without an auth mode was asked to serve beyond this machine. */
export class AuthNotConfiguredError extends NovaOSError {
  static override readonly brand: string = "AuthNotConfiguredError";
}
