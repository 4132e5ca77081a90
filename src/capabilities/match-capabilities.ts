/**
 * The reference's one-name matcher: which of `available` best meets
 * `required`, and how well. Same rule as `CapabilityMatcher` and
 * `CapabilityIndex` (capability-name.ts), so the three never disagree.
 */
import { checkThreshold } from "./capability-matcher.js";
import { bestCapabilityMatch, DEFAULT_SIMILARITY_THRESHOLD } from "./capability-name.js";

/**
 * `[capability, similarity]` for the most similar of `available` when it
 * reaches `threshold` (0 to 1, default 0.8), else undefined; the first of
 * equally similar names wins. `matchCapabilities("api", ["API Integration",
 * "Data Analysis"], 0.5)` is `["API Integration", 0.6]`.
 */
export function matchCapabilities(
  required: string,
  available: readonly string[],
  threshold: number = DEFAULT_SIMILARITY_THRESHOLD,
): [capability: string, similarity: number] | undefined {
  const best = bestCapabilityMatch(required, available, checkThreshold(threshold));
  return best && [best.capability, best.similarity];
}
