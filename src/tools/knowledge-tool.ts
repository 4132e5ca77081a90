/**
 * `ctx.tools.knowledge`: search and ingestion over the tenant's knowledge
 * collections, and GraphRAG (`novaos.knowledge.*`). Every call is idempotent,
 * so transient failures are retried (3 attempts, 1 s then 2 s) behind the
 * knowledge service's circuit breaker. Results are the tools' data, already
 * out of the MCP envelope (`(await knowledge.ingest(text)).job_id`).
 */
import type { components } from "../../gen/openapi/mcp-gateway.js";
import { DEFAULT_BASE_DELAY_MS, DEFAULT_MAX_ATTEMPTS } from "../runtime/resilience.js";
import { mapLimited } from "./map-limited.js";
import { type PollOptions, pollUntil } from "./poll.js";
import { ToolBinding } from "./tool-binding.js";
import type { ToolCallOptions } from "./tool-caller.js";
import type { ToolArguments, ToolResult } from "./tool-catalog.js";

/** Ingestion submissions of one `ingestBatch` in flight at once. */
export const BATCH_CONCURRENCY_LIMIT = 10;
/** Attempts per knowledge call, the first included. */
export const DEFAULT_MAX_RETRIES = DEFAULT_MAX_ATTEMPTS;
/** The backoff before the first retry, in seconds (doubled per retry). */
export const DEFAULT_BASE_DELAY_S = DEFAULT_BASE_DELAY_MS / 1000;
/** An ingestion's default deadline (s): its acknowledgement may take a few seconds. */
export const INGEST_TIMEOUT_S = 120;

export type KnowledgeJobState = components["schemas"]["KnowledgeJobState"];
export type KnowledgeDocumentMetadata = components["schemas"]["KnowledgeDocumentMetadata"];
export type KnowledgeSearchArguments = Omit<ToolArguments<"novaos.knowledge.query">, "query">;

/** The job states after which nothing changes. A `duplicate` upload is finished too. */
export const TERMINAL_JOB_STATES: ReadonlySet<string> = new Set([
  "completed",
  "failed",
  "dead_letter",
  "cancelled",
  "duplicate",
]);
/** The graph build states after which nothing changes. */
export const TERMINAL_GRAPH_STATES: ReadonlySet<string> = new Set(["completed", "failed"]);

/** One document of an `ingestBatch`. */
export interface IngestItem {
  content: string;
  metadata?: KnowledgeDocumentMetadata | undefined;
}

/** An ingestion job as a batch tracks it. */
export interface IngestJobStatus {
  /** The item's position in the batch (0 for a single job). */
  readonly index: number;
  /** Undefined when the submission itself failed. */
  readonly jobId: string | undefined;
  /** The service's state, `submit_error` when the submission failed, `unknown` for a state this SDK does not know. */
  readonly status: KnowledgeJobState | "submit_error" | "unknown";
  /** Why the job or its submission failed. */
  readonly error: string | undefined;
  /** The original document's id when the upload duplicated it. */
  readonly duplicateOf: string | undefined;
  /** `duplicateOf` is set, or the service reported `duplicate`. */
  readonly isDuplicate: boolean;
}

export interface BatchIngestResponse {
  /** A client-made UUID correlating the batch. */
  readonly batchId: string;
  readonly total: number;
  /** One status per item, in input order. */
  readonly items: readonly IngestJobStatus[];
}

export interface IngestBatchOptions extends ToolCallOptions {
  /** Put into each item's `metadata.collection`, unless the item names one itself. */
  collection?: string | undefined;
}

const KNOWN_JOB_STATES: ReadonlySet<string> = new Set([...TERMINAL_JOB_STATES, "pending", "running"]);

function jobStatus(index: number, job: ToolResult<"novaos.knowledge.get_job_status">): IngestJobStatus {
  const duplicateOf = job.duplicate_of ?? undefined;
  const status = KNOWN_JOB_STATES.has(job.status) ? job.status : "unknown";
  return {
    index,
    jobId: job.job_id,
    status,
    error: job.error ?? undefined,
    duplicateOf,
    isDuplicate: duplicateOf !== undefined || status === "duplicate",
  };
}

function isFinished(item: IngestJobStatus): boolean {
  return item.status === "submit_error" || TERMINAL_JOB_STATES.has(item.status);
}

export class KnowledgeTool extends ToolBinding {
  /** Semantic search (`novaos.knowledge.query`): the best hits first. */
  search(
    query: string,
    args: KnowledgeSearchArguments = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.knowledge.query">> {
    return this.caller.call("novaos.knowledge.query", { ...args, query }, options);
  }

  /** Submits one document; poll its `job_id` (`pollUntilComplete`). Default deadline 120 s. */
  ingest(
    content: string,
    metadata?: KnowledgeDocumentMetadata,
    options: ToolCallOptions = {},
  ): Promise<ToolResult<"novaos.knowledge.ingest">> {
    return this.caller.call("novaos.knowledge.ingest", metadata === undefined ? { content } : { content, metadata }, {
      ...options,
      timeoutS: options.timeoutS ?? INGEST_TIMEOUT_S,
    });
  }

  /**
   * Submits every item, at most 10 at once. An item whose submission fails is
   * `submit_error` with the reason; the others go on. Items come back in
   * input order. A cancelled run ends the whole batch.
   */
  async ingestBatch(items: readonly IngestItem[], options: IngestBatchOptions = {}): Promise<BatchIngestResponse> {
    const { collection, ...callOptions } = options;
    const statuses = await mapLimited(items, BATCH_CONCURRENCY_LIMIT, async (item, index) => {
      const metadata =
        collection !== undefined && item.metadata?.collection === undefined
          ? { ...item.metadata, collection }
          : item.metadata;
      try {
        const job = await this.ingest(item.content, metadata, callOptions);
        return jobStatus(index, job);
      } catch (error) {
        this.caller.throwIfAborted(callOptions.signal);
        const reason = error instanceof Error ? error.message : String(error);
        const failed: IngestJobStatus = {
          index,
          jobId: undefined,
          status: "submit_error",
          error: reason,
          duplicateOf: undefined,
          isDuplicate: false,
        };
        return failed;
      }
    });
    return { batchId: crypto.randomUUID(), total: items.length, items: statuses };
  }

  /** An ingestion job's state (`novaos.knowledge.get_job_status`). */
  getJobStatus(jobId: string, options?: ToolCallOptions): Promise<ToolResult<"novaos.knowledge.get_job_status">> {
    return this.caller.call("novaos.knowledge.get_job_status", { job_id: jobId }, options);
  }

  /** `getJobStatus` as an `IngestJobStatus` (index 0). */
  async getIngestStatus(jobId: string, options?: ToolCallOptions): Promise<IngestJobStatus> {
    return jobStatus(0, await this.getJobStatus(jobId, options));
  }

  /** Polls a job until it is finished; PollTimeoutError after `maxWaitS` (default 300 s). */
  pollUntilComplete(jobId: string, options: PollOptions = {}): Promise<ToolResult<"novaos.knowledge.get_job_status">> {
    return pollUntil(
      () => this.getJobStatus(jobId, { signal: options.signal }),
      (job) => TERMINAL_JOB_STATES.has(job.status),
      `Ingestion job ${jobId}`,
      this.caller,
      options,
      300,
    );
  }

  /**
   * Polls every unfinished job of a batch, all of them on each round, until
   * each is finished; PollTimeoutError after `maxWaitS` (default 600 s).
   * `submit_error` items are kept as they are.
   */
  async pollBatchUntilComplete(batch: BatchIngestResponse, options: PollOptions = {}): Promise<BatchIngestResponse> {
    let items = batch.items;
    const round = async () => {
      items = await mapLimited(items, BATCH_CONCURRENCY_LIMIT, async (item) =>
        isFinished(item) || item.jobId === undefined
          ? item
          : jobStatus(item.index, await this.getJobStatus(item.jobId, { signal: options.signal })),
      );
      return items;
    };
    await pollUntil(round, (all) => all.every(isFinished), `Batch ${batch.batchId}`, this.caller, options, 600);
    return { ...batch, items };
  }

  /** Starts (or restarts) a collection's GraphRAG build; watch it with `getGraphStatus`. */
  buildGraph(collectionId: string, options?: ToolCallOptions): Promise<ToolResult<"novaos.knowledge.build_graph">> {
    return this.caller.call("novaos.knowledge.build_graph", { collection_id: collectionId }, options);
  }

  /** A collection's graph build state and counts. */
  getGraphStatus(
    collectionId: string,
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.knowledge.get_graph_status">> {
    return this.caller.call("novaos.knowledge.get_graph_status", { collection_id: collectionId }, options);
  }

  /** Polls a graph build until it is `completed` or `failed`; PollTimeoutError after `maxWaitS` (default 300 s). */
  pollGraphBuildUntilComplete(
    collectionId: string,
    options: PollOptions = {},
  ): Promise<ToolResult<"novaos.knowledge.get_graph_status">> {
    return pollUntil(
      () => this.getGraphStatus(collectionId, { signal: options.signal }),
      (status) => TERMINAL_GRAPH_STATES.has(status.graph_status),
      `The graph build of ${collectionId}`,
      this.caller,
      options,
      300,
    );
  }

  /** Entity-centred, multi-hop graph search; `degraded: true` while the graph is not built. */
  queryGraphLocal(
    question: string,
    collectionId: string,
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.knowledge.query_graph_local">> {
    return this.caller.call("novaos.knowledge.query_graph_local", { question, collection_id: collectionId }, options);
  }

  /** Corpus-wide themes from the graph's community reports; `degraded: true` while the graph is not built. */
  queryGraphGlobal(
    question: string,
    collectionId: string,
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.knowledge.query_graph_global">> {
    return this.caller.call("novaos.knowledge.query_graph_global", { question, collection_id: collectionId }, options);
  }
}
