/**
 * The LLM Gateway (openapi/llm-gateway.yaml) of the local platform: chat
 * completions (streamed as the spec says: one `data:` chunk per token, then
 * `data: [DONE]`), embeddings and models, answered by two deterministic
 * local models (local-chat-model.ts, local-embedding-model.ts) under
 * OpenAI's wire, so `LLMClient` (and `openai` itself) works unchanged.
 *
 * A bearer token is optional (`LLMClient` without a run sends none); one that
 * is sent must be a run token of this platform (401 otherwise), and when it
 * carries `llm:model:*` scopes they limit the models, as in the cluster.
 * Errors are OpenAI's body `{error: {message, type, param, code}}`.
 */
import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { components } from "../../gen/openapi/llm-gateway.js";
import type { ExecutionTokenIssuer } from "./execution-tokens.js";
import { answerChat, type ChatAnswer, type ChatChoice, ModelRequestError } from "./local-chat-model.js";
import { base64Floats, embed, embeddingTokens, LOCAL_EMBEDDING_DIMENSIONS } from "./local-embedding-model.js";
import { tokenize } from "./model-text.js";
import { bearerToken, headerValue } from "./request-headers.js";
import type { JsonReply, OperationHandler, SseFrame } from "./spec-router.js";

type ChatRequest = components["schemas"]["ChatCompletionRequest"];
type ChatCompletionChunk = components["schemas"]["ChatCompletionChunk"];
type EmbeddingRequest = components["schemas"]["EmbeddingRequest"];

/** The local chat model's id. */
export const LOCAL_CHAT_MODEL = "novaos-local-chat";
/** The local embedding model's id. */
export const LOCAL_EMBEDDING_MODEL = "novaos-local-embed";
/** The `created` of every local model (2026-01-01T00:00:00Z): fixed, so listings are reproducible. */
const MODELS_CREATED = 1_767_225_600;
/** The `system_fingerprint` of every completion: the version of the local model's rules. */
export const LOCAL_MODEL_FINGERPRINT = "novaos-local-1";

export interface LlmGatewayOptions {
  readonly tokens: ExecutionTokenIssuer;
  /** Ids the local chat model answers under (agents that name a cluster model). Default `[novaos-local-chat]`. */
  readonly chatModels?: readonly string[];
  /** Ids the local embedding model answers under. Default `[novaos-local-embed]`. */
  readonly embeddingModels?: readonly string[];
}

function openAIError(
  status: number,
  type: string,
  message: string,
  param: string | null = null,
  code: string | null = null,
): JsonReply {
  return {
    status,
    body: { error: { message, type, param, code } },
    ...(status === 401 ? { headers: { "WWW-Authenticate": "Bearer" } } : {}),
  };
}

export function llmGatewayHandlers(options: LlmGatewayOptions): Record<string, OperationHandler> {
  const kinds = new Map<string, "chat" | "embedding">([
    ...(options.chatModels ?? [LOCAL_CHAT_MODEL]).map((id) => [id, "chat"] as const),
    ...(options.embeddingModels ?? [LOCAL_EMBEDDING_MODEL]).map((id) => [id, "embedding"] as const),
  ]);
  const model = (id: string) => ({ id, object: "model", created: MODELS_CREATED, owned_by: "novaos-local" });

  /** Which models the caller may use, or the 401 for a token that is not this platform's. */
  async function access(headers: IncomingHttpHeaders): Promise<((id: string) => boolean) | JsonReply> {
    if (headerValue(headers, "authorization") === undefined) return () => true;
    const token = bearerToken(headers);
    const claims = token ? await options.tokens.claimsOf(token) : undefined;
    if (!claims) {
      return openAIError(
        401,
        "authentication_error",
        "A run token of this platform is required",
        null,
        "invalid_api_key",
      );
    }
    const scoped = (claims.scopes ?? []).filter((scope) => scope.startsWith("llm:model:"));
    if (scoped.length === 0) return () => true;
    return (id) => scoped.includes("llm:model:*") || scoped.includes(`llm:model:${id}`);
  }

  /** The reply refusing `id` for a `kind` call, or undefined when the caller may use it. */
  function refusal(id: string, kind: "chat" | "embedding", allowed: (id: string) => boolean): JsonReply | undefined {
    const found = kinds.get(id);
    if (found === undefined) {
      return openAIError(404, "not_found_error", `The model ${id} does not exist`, "model", "model_not_found");
    }
    if (!allowed(id)) {
      return openAIError(403, "permission_error", `The run may not use the model ${id}`, "model", "model_not_allowed");
    }
    if (found !== kind) {
      return openAIError(400, "invalid_request_error", `${id} is not a ${kind} model`, "model", "model_not_supported");
    }
    return undefined;
  }

  /** The refusal of a `kind` call to the model `id` by this caller, or undefined when it may go on. */
  async function admit(headers: IncomingHttpHeaders, id: string, kind: "chat" | "embedding") {
    const allowed = await access(headers);
    return typeof allowed === "function" ? refusal(id, kind, allowed) : allowed;
  }

  return {
    listModels: async ({ headers }) => {
      const allowed = await access(headers);
      if (typeof allowed !== "function") return allowed;
      return { status: 200, body: { object: "list", data: [...kinds.keys()].filter(allowed).map(model) } };
    },
    retrieveModel: async ({ params, headers }) => {
      const allowed = await access(headers);
      if (typeof allowed !== "function") return allowed;
      const id = params.model as string;
      if (!kinds.has(id) || !allowed(id)) {
        return openAIError(404, "not_found_error", `The model ${id} does not exist`, "model", "model_not_found");
      }
      return { status: 200, body: model(id) };
    },
    createChatCompletion: async ({ body, headers }) => {
      const request = body as ChatRequest;
      const refused = await admit(headers, request.model, "chat");
      if (refused) return refused;
      let answer: ChatAnswer;
      try {
        answer = answerChat(request);
      } catch (error) {
        if (!(error instanceof ModelRequestError)) throw error;
        return openAIError(400, "invalid_request_error", error.message, error.param, error.code);
      }
      const id = `chatcmpl-${randomUUID()}`;
      const created = Math.floor(Date.now() / 1000);
      const usage = {
        prompt_tokens: answer.promptTokens,
        completion_tokens: answer.completionTokens,
        total_tokens: answer.promptTokens + answer.completionTokens,
      };
      if (request.stream === true) {
        const includeUsage = request.stream_options?.include_usage === true;
        return { events: chunks({ id, created, model: request.model, answer, usage, includeUsage }) };
      }
      return {
        status: 200,
        body: {
          id,
          object: "chat.completion",
          created,
          model: request.model,
          system_fingerprint: LOCAL_MODEL_FINGERPRINT,
          choices: answer.choices.map((choice, index) => ({
            index,
            message: {
              role: "assistant",
              content: choice.content,
              refusal: null,
              ...(choice.toolCalls.length > 0 ? { tool_calls: choice.toolCalls } : {}),
            },
            finish_reason: choice.finishReason,
            logprobs: null,
          })),
          usage,
        },
      };
    },
    createEmbedding: async ({ body, headers }) => {
      const request = body as EmbeddingRequest;
      const refused = await admit(headers, request.model, "embedding");
      if (refused) return refused;
      const dimensions = request.dimensions ?? LOCAL_EMBEDDING_DIMENSIONS;
      if (dimensions > LOCAL_EMBEDDING_DIMENSIONS) {
        return openAIError(
          400,
          "invalid_request_error",
          `${request.model} has at most ${LOCAL_EMBEDDING_DIMENSIONS} dimensions`,
          "dimensions",
        );
      }
      const { input } = request;
      const inputs: (string | number[])[] =
        typeof input === "string"
          ? [input]
          : typeof input[0] === "number"
            ? [input as number[]]
            : (input as string[] | number[][]);
      const data = [];
      for (const [index, one] of inputs.entries()) {
        const vector = embed(one, dimensions);
        if (!vector) return openAIError(400, "invalid_request_error", `input ${index} has no words to embed`, "input");
        const embedding = request.encoding_format === "base64" ? base64Floats(vector) : vector;
        data.push({ object: "embedding", index, embedding });
      }
      const tokens = inputs.reduce((sum, one) => sum + embeddingTokens(one), 0);
      return {
        status: 200,
        body: { object: "list", data, model: request.model, usage: { prompt_tokens: tokens, total_tokens: tokens } },
      };
    },
  };
}

interface ChunkSource {
  readonly id: string;
  readonly created: number;
  readonly model: string;
  readonly answer: ChatAnswer;
  readonly usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  readonly includeUsage: boolean;
}

/** The deltas of one choice: its role, then a token of content or a tool call per chunk, then its finish. */
type Delta = { delta: Record<string, unknown>; finish_reason: ChatChoice["finishReason"] | null };

function deltasOf(choice: ChatChoice): Delta[] {
  const deltas: Delta[] = [
    { delta: { role: "assistant", content: choice.content === null ? null : "" }, finish_reason: null },
  ];
  for (const token of tokenize(choice.content ?? "")) deltas.push({ delta: { content: token }, finish_reason: null });
  choice.toolCalls.forEach((call, index) => {
    deltas.push({
      delta: {
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }],
      },
      finish_reason: null,
    });
    deltas.push({
      delta: { tool_calls: [{ index, function: { arguments: call.function.arguments } }] },
      finish_reason: null,
    });
  });
  deltas.push({ delta: {}, finish_reason: choice.finishReason });
  return deltas;
}

async function* chunks(source: ChunkSource): AsyncGenerator<SseFrame, void, undefined> {
  const base = {
    id: source.id,
    object: "chat.completion.chunk" as const,
    created: source.created,
    model: source.model,
    system_fingerprint: LOCAL_MODEL_FINGERPRINT,
  };
  const usage = source.includeUsage ? { usage: null } : {};
  for (const [index, choice] of source.answer.choices.entries()) {
    for (const { delta, finish_reason } of deltasOf(choice)) {
      const chunk: ChatCompletionChunk = {
        ...base,
        choices: [{ index, delta, finish_reason, logprobs: null }],
        ...usage,
      };
      yield { data: chunk };
    }
  }
  if (source.includeUsage) yield { data: { ...base, choices: [], usage: source.usage } };
  yield { data: undefined, literal: "[DONE]" };
}
