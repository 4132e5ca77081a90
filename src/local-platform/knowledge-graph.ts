/**
 * The local platform's knowledge graph of one collection, built from its
 * documents by a simple, deterministic reading: an entity is a run of
 * capitalised words ("Ada Lovelace", "Tides"), two entities in one sentence
 * are related (weight = how many sentences hold both), and a community is a
 * connected group of entities. Its local answer names the entities a
 * question mentions and their neighbours; its global answer sums up the
 * communities, the ones the question touches first.
 */
import type { components } from "../../gen/openapi/mcp-gateway.js";
import { textScore } from "./text-score.js";

type Schemas = components["schemas"];
type GraphAnswer = Schemas["KnowledgeGraphQueryResult"];

/** A document the graph is built from. */
export interface GraphDocument {
  readonly id: string;
  readonly content: string;
}

/** How many communities, neighbours and citations an answer lists at most. */
const ANSWER_LIMIT = 5;

interface Mention {
  readonly documentId: string;
  readonly sentence: string;
}

const SENTENCES = /[^.!?\n]+[.!?]?/g;
const ENTITIES = /\p{Lu}[\p{L}\p{N}'-]*(?:\s+\p{Lu}[\p{L}\p{N}'-]*)*/gu;

/** The two names of a relationship in one key, ordered so `a|b` and `b|a` are one edge. */
const edgeKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

export class KnowledgeGraph {
  /** Entity name → the sentences that mention it, in document order. */
  readonly #mentions = new Map<string, Mention[]>();
  /** Entity name → its neighbours and the weight of each relationship. */
  readonly #neighbours = new Map<string, Map<string, number>>();
  /** Each community's entities, largest community first (ties by first name). */
  readonly communities: readonly (readonly string[])[];
  /** Distinct relationships (an unordered pair of entities counts once). */
  readonly relationshipCount: number;

  constructor(documents: readonly GraphDocument[]) {
    const edges = new Set<string>();
    for (const document of documents) {
      for (const sentence of document.content.match(SENTENCES) ?? []) {
        const names = [...new Set(sentence.match(ENTITIES) ?? [])];
        for (const name of names) this.#mention(name, { documentId: document.id, sentence: sentence.trim() });
        for (const [i, a] of names.entries()) {
          for (const b of names.slice(i + 1)) {
            this.#relate(a, b);
            this.#relate(b, a);
            edges.add(edgeKey(a, b));
          }
        }
      }
    }
    this.relationshipCount = edges.size;
    this.communities = this.#components();
  }

  get entityCount(): number {
    return this.#mentions.size;
  }

  #mention(name: string, mention: Mention): void {
    const mentions = this.#mentions.get(name) ?? [];
    mentions.push(mention);
    this.#mentions.set(name, mentions);
  }

  #relate(from: string, to: string): void {
    const neighbours = this.#neighbours.get(from) ?? new Map<string, number>();
    neighbours.set(to, (neighbours.get(to) ?? 0) + 1);
    this.#neighbours.set(from, neighbours);
  }

  /** The connected components, each sorted by name, largest first. */
  #components(): string[][] {
    const seen = new Set<string>();
    const components: string[][] = [];
    for (const start of [...this.#mentions.keys()].sort()) {
      if (seen.has(start)) continue;
      const component: string[] = [];
      const queue = [start];
      seen.add(start);
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        component.push(name);
        for (const next of this.#neighbours.get(name)?.keys() ?? []) {
          if (!seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
        }
      }
      components.push(component.sort());
    }
    return components.sort((a, b) => b.length - a.length || (a[0] ?? "").localeCompare(b[0] ?? ""));
  }

  /** The first sentence mentioning each of `names`, one citation per document. */
  #citations(names: readonly string[]): GraphAnswer["citations"] {
    const byDocument = new Map<string, string>();
    for (const name of names) {
      for (const mention of this.#mentions.get(name) ?? []) {
        if (!byDocument.has(mention.documentId)) byDocument.set(mention.documentId, mention.sentence);
      }
    }
    return [...byDocument]
      .slice(0, ANSWER_LIMIT)
      .map(([documentId, excerpt]) => ({ document_id: documentId, excerpt }));
  }

  /** The entities whose every word the question holds, and each one's strongest relationships. */
  local(question: string): GraphAnswer {
    const matched = [...this.#mentions.keys()].filter((name) => textScore(name, question) === 1).sort();
    if (matched.length === 0) {
      return {
        answer: "No entity of the graph is named in the question.",
        citations: [],
        confidence: 0,
        degraded: false,
        metadata: { search_mode: "graph_local", entities: [] },
      };
    }
    const lines = matched.map((name) => {
      const related = [...(this.#neighbours.get(name) ?? [])]
        .sort(([a, wa], [b, wb]) => wb - wa || a.localeCompare(b))
        .slice(0, ANSWER_LIMIT)
        .map(([other, weight]) => `${other} (${weight})`);
      return related.length > 0 ? `${name} is related to ${related.join(", ")}.` : `${name} has no relationships.`;
    });
    return {
      answer: lines.join(" "),
      citations: this.#citations(matched),
      confidence: textScore(question, matched.join(" ")),
      degraded: false,
      metadata: { search_mode: "graph_local", entities: matched },
    };
  }

  /** Every community in a line, those sharing the most words with the question first. */
  global(question: string): GraphAnswer {
    const ranked = this.communities
      .map((names) => ({ names, score: textScore(question, names.join(" ")) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, ANSWER_LIMIT);
    const summary = `${this.entityCount} entities, ${this.relationshipCount} relationships, ${this.communities.length} communities.`;
    const themes = ranked.map(
      ({ names }) => `A community of ${names.length}: ${names.slice(0, ANSWER_LIMIT).join(", ")}.`,
    );
    return {
      answer: [summary, ...themes].join("\n"),
      citations: this.#citations(ranked.flatMap(({ names }) => names)),
      confidence: ranked[0]?.score ?? 0,
      degraded: false,
      metadata: { search_mode: "graph_global", communities: ranked.length },
    };
  }
}
