/**
 * The local platform's knowledge base, in memory, per tenant: a document is
 * indexed as soon as it is ingested (its job answers `pending`, then
 * `completed` with the document's id when asked), and a query ranks the
 * tenant's documents by `textScore`, narrowed by collection, metadata and
 * `min_score`.
 */
import { randomUUID } from "node:crypto";
import type { components } from "../../gen/openapi/mcp-gateway.js";
import { textScore } from "./text-score.js";

type Schemas = components["schemas"];

export interface Document {
  readonly id: string;
  readonly content: string;
  readonly metadata: Record<string, unknown>;
}

/** A job this store does not know (the tool answers it as a failed call). */
export class UnknownJobError extends Error {
  override readonly name = "UnknownJobError";
}

export class KnowledgeStore {
  readonly #documents = new Map<string, Document[]>();
  /** job id → tenant and document id. */
  readonly #jobs = new Map<string, { tenant: string; documentId: string }>();

  ingest(tenant: string, args: Schemas["KnowledgeIngestArguments"]): Schemas["KnowledgeIngestResult"] {
    const document: Document = { id: `doc_${randomUUID()}`, content: args.content, metadata: { ...args.metadata } };
    const list = this.#documents.get(tenant) ?? [];
    list.push(document);
    this.#documents.set(tenant, list);
    const jobId = `job_${randomUUID()}`;
    this.#jobs.set(jobId, { tenant, documentId: document.id });
    return { job_id: jobId, status: "pending" };
  }

  jobStatus(tenant: string, args: Schemas["KnowledgeJobStatusArguments"]): Schemas["KnowledgeJobStatus"] {
    const job = this.#jobs.get(args.job_id);
    if (!job || job.tenant !== tenant) throw new UnknownJobError(`No ingestion job ${args.job_id}`);
    return { job_id: args.job_id, status: "completed", document_id: job.documentId };
  }

  /** The tenant's documents filed in `collection`, in ingestion order. */
  documentsIn(tenant: string, collection: string): readonly Document[] {
    return (this.#documents.get(tenant) ?? []).filter((doc) => doc.metadata.collection === collection);
  }

  query(tenant: string, args: Schemas["KnowledgeQueryArguments"]): Schemas["KnowledgeQueryResult"] {
    const filters = Object.entries(args.filters ?? {});
    const results = (this.#documents.get(tenant) ?? [])
      .filter((doc) => args.collection_id === undefined || doc.metadata.collection === args.collection_id)
      .filter((doc) => filters.every(([key, value]) => doc.metadata[key] === value))
      .map((doc) => ({
        document_id: doc.id,
        content: doc.content,
        score: textScore(args.query, doc.content),
        metadata: doc.metadata,
      }))
      .filter((hit) => hit.score > 0 && hit.score >= (args.min_score ?? 0))
      .sort((a, b) => b.score - a.score)
      .slice(0, args.top_k ?? 10);
    return { results };
  }
}
