/**
 * CapabilityMatcher: ranks agents by how well their capabilities cover a
 * request. Each required name is matched to the agent's most similar
 * capability (see capability-name.ts) when that similarity reaches the
 * threshold; the score is the mean best similarity over the required names
 * (a missing one counts 0), so exact matches rank above near misses and full
 * coverage above partial. `any` keeps agents with at least one match, `all`
 * only those with every one. Results are sorted by score, descending; ties
 * keep the input order.
 */
import { NovaOSValidationError } from "../errors/novaos-errors.js";
import { bestCapabilityMatch, DEFAULT_SIMILARITY_THRESHOLD } from "./capability-name.js";
import { type CapabilitiesOf, type CapabilityHolder, capabilityNames } from "./capability-source.js";

export type MatchMode = "any" | "all";

/** How one required name was met. */
export interface CapabilityMatch {
  required: string;
  /** The agent's capability that met it. */
  capability: string;
  similarity: number;
}

export interface MatchResult<T> {
  agent: T;
  /** The required names the agent meets, in request order. */
  matchedCapabilities: string[];
  /** The required names it does not meet, in request order. */
  missingCapabilities: string[];
  /** Mean best similarity over the required names, in [0, 1]. */
  score: number;
  /** For each matched name, the capability that met it. */
  matches: CapabilityMatch[];
}

export interface CapabilityMatcherOptions<T> {
  /** Minimum similarity, 0 to 1, for a fuzzy match. Default 0.8 (the reference's); 1 means exact only. */
  similarityThreshold?: number;
  /** Normalise names before comparing (default true); false compares them as given. */
  normalizeNames?: boolean;
  /** Reads an agent's capability names; default: `getCapabilities()` or `capabilities` + `metadata.capabilities`. */
  capabilitiesOf?: CapabilitiesOf<T>;
}

/** Throws when a threshold is not a number in [0, 1]. */
export function checkThreshold(threshold: number): number {
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new NovaOSValidationError(`similarityThreshold must be between 0 and 1, got ${threshold}`, {
      field: "similarityThreshold",
    });
  }
  return threshold;
}

/** Throws on an empty or non-string list; returns it without duplicates. */
export function checkRequired(required: readonly string[], field: string): string[] {
  if (!Array.isArray(required) || required.length === 0 || required.some((r) => typeof r !== "string")) {
    throw new NovaOSValidationError(`${field} must be a non-empty list of capability names`, { field });
  }
  return [...new Set(required)];
}

export class CapabilityMatcher<T = CapabilityHolder> {
  readonly similarityThreshold: number;
  readonly normalizeNames: boolean;
  readonly #capabilitiesOf: CapabilitiesOf<T>;

  constructor(options: CapabilityMatcherOptions<T> = {}) {
    this.similarityThreshold = checkThreshold(options.similarityThreshold ?? DEFAULT_SIMILARITY_THRESHOLD);
    this.normalizeNames = options.normalizeNames ?? true;
    this.#capabilitiesOf = options.capabilitiesOf ?? ((agent) => capabilityNames(agent as CapabilityHolder));
  }

  /** The agent's best capability for `required`, if it reaches the threshold. */
  bestMatch(required: string, capabilities: readonly string[]): CapabilityMatch | undefined {
    const best = bestCapabilityMatch(required, capabilities, this.similarityThreshold, {
      normalize: this.normalizeNames,
    });
    return best && { required, ...best };
  }

  /** How well one agent covers `required`. */
  score<A extends T>(agent: A, required: readonly string[]): MatchResult<A> {
    const names = checkRequired(required, "requiredCapabilities");
    const capabilities = this.#capabilitiesOf(agent);
    const matches: CapabilityMatch[] = [];
    const missingCapabilities: string[] = [];
    for (const name of names) {
      const match = this.bestMatch(name, capabilities);
      if (match) matches.push(match);
      else missingCapabilities.push(name);
    }
    const total = matches.reduce((sum, m) => sum + m.similarity, 0);
    return {
      agent,
      matchedCapabilities: matches.map((m) => m.required),
      missingCapabilities,
      score: total / names.length,
      matches,
    };
  }

  /** The agents that match in `mode`, best first. */
  match<A extends T>(
    agents: readonly A[],
    requiredCapabilities: readonly string[],
    mode: MatchMode = "any",
  ): MatchResult<A>[] {
    if (mode !== "any" && mode !== "all") {
      throw new NovaOSValidationError(`match mode must be "any" or "all", got ${JSON.stringify(mode)}`, {
        field: "mode",
      });
    }
    checkRequired(requiredCapabilities, "requiredCapabilities");
    return agents
      .map((agent) => this.score(agent, requiredCapabilities))
      .filter((r) => (mode === "all" ? r.missingCapabilities.length === 0 : r.matchedCapabilities.length > 0))
      .sort((a, b) => b.score - a.score);
  }
}
