/**
 * The addresses an agent URL may never reach: every IPv4 and IPv6 block the
 * IANA special-purpose registries mark as not globally reachable, plus
 * multicast. IPv6 forms that embed an IPv4 address (IPv4-mapped, NAT64,
 * 6to4) are blocked exactly when the embedded address is, so
 * `[::ffff:127.0.0.1]` or `[64:ff9b::a9fe:a9fe]` cannot smuggle loopback or
 * the cloud metadata address past the check. Matching uses `node:net`'s
 * `BlockList`, one per category so a refusal can say what it hit.
 */
import { BlockList, isIP } from "node:net";

/** What kind of non-public address a blocked address is. */
export type BlockedAddressCategory = "loopback" | "private" | "link-local" | "multicast" | "reserved";

type Subnet = readonly [prefix: string, bits: number, category: BlockedAddressCategory];

const IPV4_BLOCKS: readonly Subnet[] = [
  ["0.0.0.0", 8, "reserved"], // "this network"
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "private"], // carrier-grade NAT
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"], // cloud metadata lives here
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"], // IETF protocol assignments
  ["192.0.2.0", 24, "reserved"], // TEST-NET-1
  ["192.88.99.0", 24, "reserved"], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"], // benchmarking
  ["198.51.100.0", 24, "reserved"], // TEST-NET-2
  ["203.0.113.0", 24, "reserved"], // TEST-NET-3
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"], // future use and broadcast
];

const IPV6_BLOCKS: readonly Subnet[] = [
  ["::", 96, "reserved"], // unspecified, loopback (below) and deprecated IPv4-compatible addresses
  ["::1", 128, "loopback"],
  ["64:ff9b:1::", 48, "private"], // local-use NAT64
  ["100::", 64, "reserved"], // discard-only
  ["2001::", 23, "reserved"], // IETF protocol assignments (Teredo, ORCHID, …)
  ["2001:db8::", 32, "reserved"], // documentation
  ["3fff::", 20, "reserved"], // documentation
  ["5f00::", 16, "reserved"], // SRv6 SIDs
  ["fc00::", 7, "private"], // unique local
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "private"], // site-local (deprecated)
  ["ff00::", 8, "multicast"],
];

function ipv4Hex(prefix: string): [string, string] {
  const [a, b, c, d] = prefix.split(".").map((n) => Number(n).toString(16).padStart(2, "0"));
  return [`${a}${b}`, `${c}${d}`];
}

/** Each IPv4 block again as it appears inside IPv4-mapped, NAT64 and 6to4 IPv6 addresses. */
function embeddedIpv4Blocks(): Subnet[] {
  return IPV4_BLOCKS.flatMap(([prefix, bits, category]): Subnet[] => {
    const [high, low] = ipv4Hex(prefix);
    return [
      [`::ffff:${high}:${low}`, 96 + bits, category],
      [`64:ff9b::${high}:${low}`, 96 + bits, category],
      [`2002:${high}:${low}::`, 16 + bits, category],
    ];
  });
}

/** Checked in this order, so `::1` reports `loopback` although `::/96` is `reserved` too. */
const CATEGORIES: readonly BlockedAddressCategory[] = ["loopback", "link-local", "private", "multicast", "reserved"];
const LISTS = new Map(CATEGORIES.map((category) => [category, new BlockList()]));
for (const [prefix, bits, category] of [...IPV4_BLOCKS, ...IPV6_BLOCKS, ...embeddedIpv4Blocks()]) {
  LISTS.get(category)?.addSubnet(prefix, bits, isIP(prefix) === 4 ? "ipv4" : "ipv6");
}

/**
 * Why `address` (an IP literal, IPv6 without brackets) may not be reached,
 * or undefined when it is a public address. Anything that is not an IP
 * literal is refused as `reserved`: the caller must resolve names first.
 */
export function blockedAddressCategory(address: string): BlockedAddressCategory | undefined {
  const bare = address.replace(/%.*$/, ""); // an IPv6 zone id says nothing about the address
  const family = isIP(bare);
  if (family === 0) return "reserved";
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const [category, list] of LISTS) {
    if (list.check(bare, type)) return category;
  }
  return undefined;
}

/** Whether `address` is a private, loopback, link-local, multicast or reserved address. */
export function isBlockedAddress(address: string): boolean {
  return blockedAddressCategory(address) !== undefined;
}
