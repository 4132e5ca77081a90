/**
 * Safe by default: an agent built without an `auth` mode authenticates
 * nobody, so it answers only callers on its own machine. `listen()` refuses
 * to bind anything but a loopback address, the Fetch handler (which cannot
 * see who is calling) refuses to be made, and the node and gRPC handlers
 * refuse every call whose socket is not a loopback one. Choosing a mode,
 * `"none"` included, lifts all three.
 */
import { NovaOSError } from "../../errors/novaos-errors.js";

const DOTTED_IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The four bytes of a dotted IPv4 address, or undefined. */
function ipv4Bytes(text: string): number[] | undefined {
  const match = DOTTED_IPV4.exec(text);
  const bytes = match?.slice(1).map(Number);
  return bytes?.every((b) => b <= 255) ? bytes : undefined;
}

/** The 16-bit groups of one side of an IPv6 `::`; the last may be a dotted IPv4 address, as two groups. */
function groupsOf(part: string): number[] | undefined {
  if (part === "") return [];
  const pieces = part.split(":");
  const out: number[] = [];
  for (const [i, piece] of pieces.entries()) {
    const v4 = i === pieces.length - 1 ? ipv4Bytes(piece) : undefined;
    if (v4) {
      const [a, b, c, d] = v4 as [number, number, number, number];
      out.push((a << 8) | b, (c << 8) | d);
    } else if (/^[\da-f]{1,4}$/.test(piece)) {
      out.push(Number.parseInt(piece, 16));
    } else {
      return undefined;
    }
  }
  return out;
}

/** The eight groups of an IPv6 address, `::` expanded, or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = groupsOf(halves[0] as string);
  const tail = halves.length === 2 ? groupsOf(halves[1] as string) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

const COMMON_LOOPBACK: ReadonlySet<string> = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * Whether `address` (as a socket reports it) is a loopback address:
 * 127.0.0.0/8, ::1, or 127.0.0.0/8 mapped into IPv6 (`::ffff:127.0.0.1`).
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  // What a local caller's socket says, nearly always: no parsing on every call.
  if (COMMON_LOOPBACK.has(address)) return true;
  const text = address.toLowerCase().replace(/%.*$/, "");
  const v4 = ipv4Bytes(text);
  if (v4) return v4[0] === 127;
  const v6 = ipv6Groups(text);
  if (!v6) return false;
  const zeros = (from: number, to: number) => v6.slice(from, to).every((g) => g === 0);
  if (zeros(0, 7)) return v6[7] === 1;
  return zeros(0, 5) && v6[5] === 0xffff && (v6[6] as number) >> 8 === 127;
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
