/**
 * CapabilityIndex: agents by normalised capability name, for repeated
 * lookups over one agent list. Exact lookups are one map read; fuzzy lookups
 * compare against the distinct names once, not against every agent. Results
 * keep the order the agents were given in.
 */

import { checkRequired, checkThreshold } from "./capability-matcher.js";
import { capabilitySimilarity, DEFAULT_SIMILARITY_THRESHOLD, normalizeCapabilityName } from "./capability-name.js";
import { type CapabilitiesOf, type CapabilityHolder, capabilityNames } from "./capability-source.js";

export interface CapabilityIndexOptions<T> {
  /** Minimum similarity for fuzzy lookups. Default 0.8. */
  similarityThreshold?: number;
  capabilitiesOf?: CapabilitiesOf<T>;
}

export interface LookupOptions {
  /** Also accept names whose similarity reaches the threshold. Default false (equal after normalisation). */
  fuzzy?: boolean;
}

export class CapabilityIndex<T = CapabilityHolder> {
  readonly #agents: readonly T[];
  /** Normalised name → indexes into #agents, ascending. */
  readonly #byName = new Map<string, number[]>();
  readonly #threshold: number;

  constructor(agents: readonly T[], options: CapabilityIndexOptions<T> = {}) {
    this.#agents = [...agents];
    this.#threshold = checkThreshold(options.similarityThreshold ?? DEFAULT_SIMILARITY_THRESHOLD);
    const capabilitiesOf = options.capabilitiesOf ?? ((agent: T) => capabilityNames(agent as CapabilityHolder));
    this.#agents.forEach((agent, i) => {
      for (const name of capabilitiesOf(agent)) {
        const key = normalizeCapabilityName(name);
        const list = this.#byName.get(key) ?? [];
        if (list.at(-1) !== i) list.push(i);
        this.#byName.set(key, list);
      }
    });
  }

  /** Every distinct normalised capability name in the index. */
  get capabilities(): string[] {
    return [...this.#byName.keys()];
  }

  /** Indexes of the agents having `capability`. */
  #lookup(capability: string, fuzzy: boolean): Set<number> {
    const key = normalizeCapabilityName(capability);
    const hits = new Set(this.#byName.get(key) ?? []);
    if (fuzzy) {
      for (const [name, indexes] of this.#byName) {
        if (name !== key && capabilitySimilarity(key, name) >= this.#threshold) for (const i of indexes) hits.add(i);
      }
    }
    return hits;
  }

  #agentsAt(indexes: Set<number>): T[] {
    return [...indexes].sort((a, b) => a - b).map((i) => this.#agents[i] as T);
  }

  /** The agents having `capability`. */
  findAgentsByCapability(capability: string, options: LookupOptions = {}): T[] {
    return this.#agentsAt(this.#lookup(capability, options.fuzzy === true));
  }

  /** The agents having every one of `capabilities` (`requireAll`, the default) or at least one. */
  findAgentsByCapabilities(
    capabilities: readonly string[],
    options: LookupOptions & { requireAll?: boolean } = {},
  ): T[] {
    const sets = checkRequired(capabilities, "capabilities").map((c) => this.#lookup(c, options.fuzzy === true));
    const combined =
      options.requireAll === false
        ? new Set(sets.flatMap((s) => [...s]))
        : new Set([...(sets[0] ?? [])].filter((i) => sets.every((s) => s.has(i))));
    return this.#agentsAt(combined);
  }
}
