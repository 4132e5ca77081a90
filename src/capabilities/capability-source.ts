/**
 * Where an agent's capability names come from. An `AgentDNSRecord` answers
 * `getCapabilities()` (its list merged with `metadata.capabilities`); a plain
 * record in wire form carries `capabilities` (names) and maybe
 * `metadata.capabilities` (names or `{ name }` objects). Anything else can be
 * matched through a `capabilitiesOf` function.
 */

/** Anything the matcher can read capability names from without help. */
export type CapabilityHolder =
  | { getCapabilities(): readonly { name: string }[] }
  | { capabilities?: readonly unknown[] | undefined; metadata?: { capabilities?: unknown } | undefined };

/** Reads an agent's capability names. */
export type CapabilitiesOf<T> = (agent: T) => readonly string[];

function nameOf(entry: unknown): string | undefined {
  if (typeof entry === "string") return entry;
  const name = (entry as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : undefined;
}

function entriesOf(agent: CapabilityHolder): readonly unknown[] {
  if ("getCapabilities" in agent) return agent.getCapabilities();
  const fromMetadata = agent.metadata?.capabilities;
  return [...(agent.capabilities ?? []), ...(Array.isArray(fromMetadata) ? fromMetadata : [])];
}

/** The capability names of a `CapabilityHolder`, record list first, blanks and duplicates dropped. */
export function capabilityNames(agent: CapabilityHolder): string[] {
  const names = entriesOf(agent)
    .map(nameOf)
    .filter((n): n is string => n !== undefined && n.trim() !== "");
  return [...new Set(names)];
}
