/**
 * Questions about an Agent Card already in hand (spec §4.4.1): where does it
 * answer a binding, which skills and extensions does it declare, which
 * extensions must a caller activate. A binding asked for by name gets that
 * binding or nothing, never another one; an interface that declares a
 * protocol version this SDK does not speak (a `0.3` twin of a `1.0`
 * interface) is skipped, as interface selection skips it. Extension URIs are
 * opaque and compare exactly.
 */
import type { AgentCard, AgentExtension, AgentInterface, AgentSkill } from "../../gen/a2a_pb.js";
import { PROTOCOL_BINDING_JSONRPC, type ProtocolBinding } from "./constants.js";
import { isSupportedVersion } from "./version.js";

/** Whether this SDK speaks the interface's protocol version (an interface that names none is taken as 1.0). */
export function speaksInterface(iface: AgentInterface): boolean {
  return iface.protocolVersion === "" || isSupportedVersion(iface.protocolVersion);
}

/** The card's first interface for `binding` (default JSON-RPC) that this SDK can call, or undefined. */
export function interfaceFor(
  card: AgentCard,
  binding: ProtocolBinding | (string & {}) = PROTOCOL_BINDING_JSONRPC,
): AgentInterface | undefined {
  return card.supportedInterfaces.find((i) => i.protocolBinding === binding && speaksInterface(i));
}

/** The URL to point a client speaking `binding` (default JSON-RPC) at, or undefined. */
export function interfaceUrl(
  card: AgentCard,
  binding: ProtocolBinding | (string & {}) = PROTOCOL_BINDING_JSONRPC,
): string | undefined {
  return interfaceFor(card, binding)?.url;
}

/** The advertised skill with this id (what a caller sends as `skillId`), or undefined. */
export function skillById(card: AgentCard, skillId: string): AgentSkill | undefined {
  return card.skills.find((s) => s.id === skillId);
}

/** The id of every advertised skill, in card order. */
export function skillIds(card: AgentCard): string[] {
  return card.skills.map((s) => s.id);
}

/** Every extension the card declares (`capabilities.extensions`). */
export function cardExtensions(card: AgentCard): AgentExtension[] {
  return [...(card.capabilities?.extensions ?? [])];
}

/** The declared extension with this URI, or undefined. */
export function extensionByUri(card: AgentCard, uri: string): AgentExtension | undefined {
  return cardExtensions(card).find((e) => e.uri === uri);
}

/** Whether the card declares the extension `uri`. */
export function supportsExtension(card: AgentCard, uri: string): boolean {
  return extensionByUri(card, uri) !== undefined;
}

/** The URI of every declared extension, in declaration order. */
export function extensionUris(card: AgentCard): string[] {
  return cardExtensions(card).map((e) => e.uri);
}

/** The URIs a caller must activate to be answered at all (otherwise -32008). */
export function requiredExtensionUris(card: AgentCard): string[] {
  return cardExtensions(card)
    .filter((e) => e.required)
    .map((e) => e.uri);
}
