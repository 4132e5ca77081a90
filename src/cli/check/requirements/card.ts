/** The Agent Card (spec §8, §4.4, §5.5, §5.7): served, complete, well formed, cacheable, signed when a JWKS is given. */
import { AgentCardSchema } from "../../../index.js";
import { verifyAgentCardSignatures } from "../../../security/index.js";
import { interfaceFindings, requiredFieldFindings, skillFindings } from "../../card-lint.js";
import { jsonFormProblems } from "../json-form.js";
import { type CardRequirement, fail, pass, skip } from "../requirement.js";

const problems = (findings: { level: string; rule: string; message: string }[], level: string, rule?: string) =>
  findings.filter((f) => f.level === level && (rule === undefined || f.rule === rule)).map((f) => f.message);

const verdictOf = (messages: string[]) => (messages.length === 0 ? pass() : fail(messages.slice(0, 3).join("; ")));

/** Checked by fetching the card before anything else; a card that cannot be read fails it and ends the run. */
export const CARD_SERVED: CardRequirement = {
  id: "CARD-SERVED",
  section: "§8.1, §8.2",
  level: "MUST",
  scope: "card",
  title: "the agent card is served at /.well-known/agent-card.json as a JSON object",
  run: () => pass(),
};

export const CARD_REQUIREMENTS: readonly CardRequirement[] = [
  CARD_SERVED,
  {
    id: "CARD-REQUIRED-FIELDS",
    section: "§5.7",
    level: "MUST",
    scope: "card",
    title: "the card sets every REQUIRED field (required lists non-empty)",
    run: ({ card }) => verdictOf(requiredFieldFindings(card).map((f) => f.message)),
  },
  {
    id: "CARD-INTERFACES",
    section: "§8.3.1",
    level: "MUST",
    scope: "card",
    title: "each interface declares its binding and a URL; one is a standard binding at A2A 1.0",
    run: ({ card }) => verdictOf(problems(interfaceFindings(card), "error")),
  },
  {
    id: "CARD-VERSION-FORMAT",
    section: "§3.6",
    level: "SHOULD",
    scope: "card",
    title: "interface protocol versions are Major.Minor, without a patch number",
    run: ({ card }) => verdictOf(problems(interfaceFindings(card), "warning", "protocol-version")),
  },
  {
    id: "CARD-SKILL-IDS",
    section: "§4.4.5",
    level: "MUST",
    scope: "card",
    title: "skill ids are unique",
    run: ({ card }) => verdictOf(problems(skillFindings(card), "error")),
  },
  {
    id: "CARD-JSON-NAMES",
    section: "§5.5",
    level: "MUST",
    scope: "card",
    title: "the card's JSON field names are camelCase and its enums are names",
    run: ({ cardJson }) => verdictOf(jsonFormProblems(AgentCardSchema, cardJson, ["name", "enum"])),
  },
  {
    id: "CARD-CACHE-CONTROL",
    section: "§8.6.1",
    level: "SHOULD",
    scope: "card",
    title: "the card response carries Cache-Control with max-age",
    run: ({ cardHeaders }) => {
      const value = cardHeaders.get("cache-control");
      return value && /max-age=\d+/i.test(value) ? pass() : fail(`Cache-Control is ${JSON.stringify(value)}`);
    },
  },
  {
    id: "CARD-ETAG",
    section: "§8.6.1",
    level: "SHOULD",
    scope: "card",
    title: "the card response carries an ETag",
    run: ({ cardHeaders }) => (cardHeaders.get("etag") ? pass() : fail("no ETag header")),
  },
  {
    id: "CARD-SIGNATURE",
    section: "§8.4.3",
    level: "MUST",
    scope: "card",
    title: "with --jwks: a signature verifies over the card's RFC 8785 form",
    run: async ({ cardJson, options }) => {
      if (!options.jwksUrl) return skip("no --jwks given");
      try {
        await verifyAgentCardSignatures(cardJson, { jwksUrl: options.jwksUrl });
        return pass();
      } catch (error) {
        return fail((error as Error).message);
      }
    },
  },
];
