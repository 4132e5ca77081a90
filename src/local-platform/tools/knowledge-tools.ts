/**
 * The knowledge tools of the local MCP Gateway (`novaos.knowledge.ingest`,
 * `get_job_status`, `query`) over the platform's `KnowledgeStore`; an
 * unknown job is the knowledge service's 404, as an `isError` result.
 */
import { type KnowledgeStore, UnknownJobError } from "../knowledge-store.js";
import { type ToolHandler, withHttpFailures } from "./tool-call.js";

export function knowledgeTools(knowledge: KnowledgeStore): Record<string, ToolHandler> {
  return {
    "novaos.knowledge.ingest": ({ claims, args }) => knowledge.ingest(claims.tenant_id, args as never),
    "novaos.knowledge.get_job_status": withHttpFailures(
      (error) => (error instanceof UnknownJobError ? 404 : undefined),
      ({ claims, args }) => knowledge.jobStatus(claims.tenant_id, args as never),
    ),
    "novaos.knowledge.query": ({ claims, args }) => knowledge.query(claims.tenant_id, args as never),
  };
}
