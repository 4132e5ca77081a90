/**
 * The knowledge tools of the local MCP Gateway (`novaos.knowledge.ingest`,
 * `get_job_status`, `query`) over the platform's `KnowledgeStore`, and the
 * graph tools (`build_graph`, `get_graph_status`, `query_graph_local`,
 * `query_graph_global`) over its collections' `KnowledgeGraphs`; an
 * unknown job is the knowledge service's 404, as an `isError` result.
 */
import { KnowledgeGraphs } from "../knowledge-graphs.js";
import { type KnowledgeStore, UnknownJobError } from "../knowledge-store.js";
import { type ToolHandler, withHttpFailures } from "./tool-call.js";

export function knowledgeTools(knowledge: KnowledgeStore): Record<string, ToolHandler> {
  const graphs = new KnowledgeGraphs(knowledge);
  return {
    "novaos.knowledge.ingest": ({ claims, args }) => knowledge.ingest(claims.tenant_id, args as never),
    "novaos.knowledge.get_job_status": withHttpFailures(
      (error) => (error instanceof UnknownJobError ? 404 : undefined),
      ({ claims, args }) => knowledge.jobStatus(claims.tenant_id, args as never),
    ),
    "novaos.knowledge.query": ({ claims, args }) => knowledge.query(claims.tenant_id, args as never),
    "novaos.knowledge.build_graph": ({ claims, args }) => graphs.build(claims.tenant_id, args as never),
    "novaos.knowledge.get_graph_status": ({ claims, args }) => graphs.status(claims.tenant_id, args as never),
    "novaos.knowledge.query_graph_local": ({ claims, args }) => graphs.queryLocal(claims.tenant_id, args as never),
    "novaos.knowledge.query_graph_global": ({ claims, args }) => graphs.queryGlobal(claims.tenant_id, args as never),
  };
}
