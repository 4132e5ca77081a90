/** Capability matching and indexing over agent records (Agent DNS records or their wire form). */
export { Capability, type CapabilityJson } from "./capability.js";
export * from "./capability-index.js";
export {
  type CapabilityMatch,
  CapabilityMatcher,
  type CapabilityMatcherOptions,
  type MatchMode,
  type MatchResult,
} from "./capability-matcher.js";
export {
  CONTAINED_NAME_SIMILARITY,
  capabilitySimilarity,
  DEFAULT_SIMILARITY_THRESHOLD,
  normalizeCapabilityName,
} from "./capability-name.js";
export { type CapabilitiesOf, type CapabilityHolder, capabilityNames } from "./capability-source.js";
export { matchCapabilities } from "./match-capabilities.js";
export { similarityRatio } from "./similarity.js";
