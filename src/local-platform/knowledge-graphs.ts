/**
 * The graph builds of the local platform's knowledge base, per tenant and
 * collection. A build reads the collection's documents as they are at that
 * moment and finishes at once: `build` answers `pending` with zero counts (the
 * acknowledgement the spec describes), and the status is `completed` with
 * the counts from then on, or `failed` when the collection has no document.
 * A document ingested later is in the graph after the next build. Queries on
 * a collection without a completed graph answer `degraded: true`.
 */
import type { components } from "../../gen/openapi/mcp-gateway.js";
import { KnowledgeGraph } from "./knowledge-graph.js";
import type { KnowledgeStore } from "./knowledge-store.js";

type Schemas = components["schemas"];
type GraphAnswer = Schemas["KnowledgeGraphQueryResult"];

type Built = { graph: KnowledgeGraph; error?: undefined } | { graph?: undefined; error: string };

export class KnowledgeGraphs {
  readonly #knowledge: KnowledgeStore;
  /** tenant and collection → the last build's graph, or why it failed. */
  readonly #builds = new Map<string, Built>();

  constructor(knowledge: KnowledgeStore) {
    this.#knowledge = knowledge;
  }

  build(tenant: string, args: Schemas["KnowledgeGraphArguments"]): Schemas["KnowledgeGraphBuildResult"] {
    const documents = this.#knowledge.documentsIn(tenant, args.collection_id);
    this.#builds.set(
      [tenant, args.collection_id].join("\u0000"),
      documents.length > 0
        ? { graph: new KnowledgeGraph(documents) }
        : { error: `Collection ${args.collection_id} has no documents` },
    );
    return { status: "pending", entity_count: 0, relationship_count: 0, community_count: 0 };
  }

  status(tenant: string, args: Schemas["KnowledgeGraphArguments"]): Schemas["KnowledgeGraphStatus"] {
    const built = this.#builds.get([tenant, args.collection_id].join("\u0000"));
    const graph = built?.graph;
    return {
      graph_status: built === undefined ? "none" : graph ? "completed" : "failed",
      graph_error: built?.error ?? null,
      graph_entity_count: graph?.entityCount ?? 0,
      graph_relationship_count: graph?.relationshipCount ?? 0,
      graph_community_count: graph?.communities.length ?? 0,
    };
  }

  queryLocal(tenant: string, args: Schemas["KnowledgeGraphQueryArguments"]): GraphAnswer {
    return this.#answer(tenant, args, "graph_local", (graph) => graph.local(args.question));
  }

  queryGlobal(tenant: string, args: Schemas["KnowledgeGraphQueryArguments"]): GraphAnswer {
    return this.#answer(tenant, args, "graph_global", (graph) => graph.global(args.question));
  }

  #answer(
    tenant: string,
    args: Schemas["KnowledgeGraphQueryArguments"],
    mode: GraphAnswer["metadata"]["search_mode"],
    ask: (graph: KnowledgeGraph) => GraphAnswer,
  ): GraphAnswer {
    const graph = this.#builds.get([tenant, args.collection_id].join("\u0000"))?.graph;
    if (graph) return ask(graph);
    return {
      answer: `The graph of collection ${args.collection_id} is not built: build it first.`,
      citations: [],
      confidence: null,
      degraded: true,
      metadata: { search_mode: mode },
    };
  }
}
