/**
 * Which of an agent card's interfaces a client calls (spec §8.3), and which
 * tenant it sends. Server preference (the default, and the spec's rule) walks
 * the card in its own order and takes the first interface whose binding the
 * client speaks; client preference walks the client's bindings in its order.
 * An interface that declares a protocol version this SDK does not speak
 * (e.g. a `0.3` twin of a `1.0` interface) is never chosen.
 */
import type { AgentCard, AgentInterface } from "../../gen/a2a_pb.js";
import { speaksInterface as speaks } from "../a2a/agent-card-lookups.js";
import type { ProtocolBinding } from "../a2a/constants.js";

export interface SelectInterfaceOptions {
  /** Walk the client's bindings in its own order instead of the card's. Default false. */
  useClientPreference?: boolean;
}

export function selectInterface(
  interfaces: readonly AgentInterface[],
  bindings: readonly ProtocolBinding[],
  options: SelectInterfaceOptions = {},
): AgentInterface | undefined {
  const usable = interfaces.filter(speaks);
  if (options.useClientPreference) {
    for (const binding of bindings) {
      const match = usable.find((i) => i.protocolBinding === binding);
      if (match) return match;
    }
    return undefined;
  }
  return usable.find((i) => (bindings as readonly string[]).includes(i.protocolBinding));
}

/** URLs compare as parsed, without trailing slashes; what does not parse (a bare gRPC target) compares as text. */
export function sameUrl(a: string, b: string): boolean {
  const normal = (url: string) => {
    try {
      return new URL(url).href.replace(/\/+$/, "");
    } catch {
      return url.trim().replace(/\/+$/, "");
    }
  };
  return normal(a) === normal(b);
}

/** The card's interface at `url` (the one of `binding` when several share it). */
export function interfaceAt(card: AgentCard, url: string, binding?: string): AgentInterface | undefined {
  const atUrl = card.supportedInterfaces.filter((i) => speaks(i) && sameUrl(i.url, url));
  return atUrl.find((i) => i.protocolBinding === binding) ?? (binding === undefined ? atUrl[0] : undefined);
}

/**
 * The tenant a card declares for a client at `url` speaking `binding`: the
 * interface at that URL, else the card's first interface of that binding.
 */
export function tenantFromCard(card: AgentCard, url: string, binding: string): string | undefined {
  const iface =
    interfaceAt(card, url, binding) ?? card.supportedInterfaces.find((i) => speaks(i) && i.protocolBinding === binding);
  return iface?.tenant || undefined;
}
