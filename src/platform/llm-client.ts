/**
 * `LLMClient`: chat completions (streamed or not), embeddings and models
 * through the NovaOS LLM Gateway, which speaks OpenAI's API
 * (openapi/llm-gateway.yaml). It wraps the official `openai` package, an
 * optional peer dependency loaded on first use (decision D134), with the
 * SDK's own fetch (llm-fetch.ts): the run's token, the correlation headers,
 * trace context, the one resilience policy, bounded answers.
 *
 *   await using llm = new LLMClient({ executionContext: ctx.executionContext }); // LLM_GATEWAY_URL
 *   const answer = await llm.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }] });
 *   for await (const chunk of await llm.chat.completions.create({ model: "gpt-4o-mini", messages, stream: true })) {
 *     process.stdout.write(chunk.choices[0]?.delta.content ?? "");
 *   }
 *
 * Every failure is the SDK's typed error, also while a stream is read:
 * a status maps as every platform call's does (OpenAI's `error.message` is
 * the message, its `code` and `type` are in `details`), a spent budget
 * (429 `insufficient_quota`) is an `InsufficientQuotaError` that is never
 * retried, no answer is a NovaOSConnectionError, the caller's abort ends the
 * call with the signal's reason. `openai()` hands out the raw client for
 * anything else, with OpenAI's own errors.
 */
import type { OpenAI } from "openai";
import type { paths } from "../../gen/openapi/llm-gateway.js";
import {
  NovaOSConnectionError,
  NovaOSError,
  NovaOSRateLimitError,
  NovaOSServerError,
} from "../errors/novaos-errors.js";
import { BodyTooLargeError } from "../http/capped-body.js";
import { errorForHttpStatus, parseRetryAfter } from "../http/http-status-errors.js";
import { isRecord } from "../http/json-fields.js";
import { ServiceClient } from "../http/service-client.js";
import { DEFAULT_MAX_RESPONSE_BYTES, type ServiceClientOptions } from "../http/service-connection.js";
import { connectionError, findSdkError } from "../http/transport-failure.js";
import type { ExecutionContext } from "../runtime/execution-context.js";
import { NOVAOS_CONTEXT_HEADERS } from "../runtime/execution-context.js";
import { createGatewayFetch } from "./llm-fetch.js";

/** The environment variable naming the LLM Gateway (its origin; paths start with `/v1`). */
export const LLM_GATEWAY_URL_ENV = "LLM_GATEWAY_URL";
/** The deadline of an LLM call until its answer starts (ms): OpenAI's own default. */
export const DEFAULT_LLM_TIMEOUT_MS = 600_000;

type OpenAIModule = typeof import("openai");

/** The longest delay `setTimeout` takes (a longer one fires at once). */
const MAX_TIMER_MS = 2_147_483_647;

export type ChatCompletion = OpenAI.ChatCompletion;
export type ChatCompletionChunk = OpenAI.ChatCompletionChunk;
export type ChatCompletionCreateParams = OpenAI.ChatCompletionCreateParams;
export type ChatCompletionCreateParamsStreaming = OpenAI.ChatCompletionCreateParamsStreaming;
export type ChatCompletionCreateParamsNonStreaming = OpenAI.ChatCompletionCreateParamsNonStreaming;
export type EmbeddingCreateParams = OpenAI.EmbeddingCreateParams;
export type CreateEmbeddingResponse = OpenAI.CreateEmbeddingResponse;
export type LLMModel = OpenAI.Model;

/** Per-call options: the caller's signal, and OpenAI's own request options. */
export type LLMRequestOptions = OpenAI.RequestOptions;

/**
 * The options of every platform client (`baseUrl` defaults to `LLM_GATEWAY_URL`, the gateway's origin;
 * `resilience.timeoutMs`, default 600 000, bounds each attempt until its answer starts), and the run.
 */
export interface LLMClientOptions extends ServiceClientOptions {
  /**
   * The run whose token is the bearer (read per request, so a rotated token
   * applies) and whose `X-NovaOS-*` ids are sent for correlation. Without
   * one and without `auth`, no credentials are sent (a local gateway).
   */
  executionContext?: ExecutionContext | undefined;
}

/** The gateway answered 429 `insufficient_quota`: the run's LLM budget is spent, and no retry helps. */
export class InsufficientQuotaError extends NovaOSRateLimitError {
  static override readonly brand: string = "InsufficientQuotaError";
  override get isRetryable(): boolean {
    return false;
  }
}

let openaiModule: Promise<OpenAIModule> | undefined;

function loadOpenAI(): Promise<OpenAIModule> {
  openaiModule ??= import("openai").catch((error: unknown) => {
    openaiModule = undefined;
    throw new NovaOSError("LLMClient needs the `openai` package (>=6 <8): npm install openai", { cause: error });
  });
  return openaiModule;
}

export class LLMClient extends ServiceClient<paths> {
  readonly #options: LLMClientOptions;
  #client: Promise<{ openai: OpenAI; module: OpenAIModule }> | undefined;

  constructor(options: LLMClientOptions = {}) {
    super({ name: "LLM Gateway", urlVariable: LLM_GATEWAY_URL_ENV, timeoutMs: DEFAULT_LLM_TIMEOUT_MS }, options);
    this.#options = options;
  }

  /** `chat.completions.create(params)`: a completion, or with `stream: true` its chunks. */
  get chat() {
    return {
      completions: {
        create: ((params: ChatCompletionCreateParams, options?: LLMRequestOptions) =>
          this.#call(options, async (openai) => {
            const answer = await openai.chat.completions.create(params, options);
            return params.stream === true
              ? this.#mappedStream(answer as AsyncIterable<ChatCompletionChunk>, options)
              : answer;
          })) as {
          (params: ChatCompletionCreateParamsNonStreaming, options?: LLMRequestOptions): Promise<ChatCompletion>;
          (
            params: ChatCompletionCreateParamsStreaming,
            options?: LLMRequestOptions,
          ): Promise<AsyncGenerator<ChatCompletionChunk, void, undefined>>;
        },
      },
    };
  }

  /** `embeddings.create(params)`: one vector per input, in input order. */
  get embeddings() {
    return {
      create: (params: EmbeddingCreateParams, options?: LLMRequestOptions): Promise<CreateEmbeddingResponse> =>
        this.#call(options, (openai) => openai.embeddings.create(params, options)),
    };
  }

  /** `models.list()` (the models the token's `llm:model:*` scopes allow) and `models.retrieve(id)`. */
  get models() {
    return {
      list: (options?: LLMRequestOptions): Promise<LLMModel[]> =>
        this.#call(options, async (openai) => (await openai.models.list(options)).data),
      retrieve: (model: string, options?: LLMRequestOptions): Promise<LLMModel> =>
        this.#call(options, (openai) => openai.models.retrieve(model, options)),
    };
  }

  /** The ids of the models this run may use (`GET /v1/models`, filtered by the token's scopes). */
  async availableModels(options?: LLMRequestOptions): Promise<string[]> {
    return (await this.models.list(options)).map((model) => model.id);
  }

  /** Whether this run may use `model`. */
  async hasModel(model: string, options?: LLMRequestOptions): Promise<boolean> {
    return (await this.availableModels(options)).includes(model);
  }

  /** The `openai` client the wrappers use, for anything else; its errors are OpenAI's. */
  async openai(): Promise<OpenAI> {
    return (await this.#load()).openai;
  }

  #load(): Promise<{ openai: OpenAI; module: OpenAIModule }> {
    this.#client ??= loadOpenAI().then((module) => {
      const options = this.#options;
      const run = options.traceparent;
      const send = createGatewayFetch({
        send: this.connection.fetch,
        policy: this.connection.policy,
        headers: () => this.#headers(),
        traceparent: typeof run === "function" ? run : () => run,
        maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      });
      const openai = new module.OpenAI({
        baseURL: `${this.baseUrl}/v1`,
        // OpenAI's client requires a key; the real credentials are set per request by `send`.
        apiKey: "unused",
        maxRetries: 0,
        // The policy's deadline bounds each attempt; OpenAI's own timer is set to the longest a timer can wait.
        timeout: MAX_TIMER_MS,
        fetch: send,
      });
      return { openai, module };
    });
    return this.#client;
  }

  /** Fixed headers, the run's ids (never its token header), then credentials. */
  async #headers(): Promise<Record<string, string>> {
    const context = this.#options.executionContext;
    const ids = context?.toContextHeaders() ?? {};
    delete ids[NOVAOS_CONTEXT_HEADERS.executionToken];
    return {
      ...this.#options.headers,
      ...ids,
      ...context?.toAuthHeaders(),
      ...(await this.#options.auth?.headers()),
    };
  }

  async #call<T>(options: LLMRequestOptions | undefined, run: (openai: OpenAI) => Promise<T>): Promise<T> {
    this.connection.checkOpen();
    const { openai, module } = await this.#load();
    try {
      return await run(openai);
    } catch (error) {
      throw this.#mapped(error, module, options);
    }
  }

  async *#mappedStream(
    stream: AsyncIterable<ChatCompletionChunk>,
    options: LLMRequestOptions | undefined,
  ): AsyncGenerator<ChatCompletionChunk, void, undefined> {
    const { module } = await this.#load();
    try {
      yield* stream;
    } catch (error) {
      throw this.#mapped(error, module, options);
    }
  }

  /** The SDK's error for what `openai` (or the SDK's fetch under it) threw. */
  #mapped(error: unknown, module: OpenAIModule, options: LLMRequestOptions | undefined): unknown {
    const sdk = findSdkError(error);
    if (sdk) return sdk;
    if (error instanceof module.APIUserAbortError) {
      const signal = options?.signal;
      return signal?.aborted ? signal.reason : error;
    }
    if (this.closed) return new NovaOSError("The LLM Gateway client is closed", { cause: error });
    if (error instanceof module.APIConnectionTimeoutError) {
      return new NovaOSConnectionError("The LLM Gateway did not answer in time", { cause: error });
    }
    if (error instanceof module.APIConnectionError) {
      return new NovaOSConnectionError(`Connection to the LLM Gateway failed: ${error.message}`, { cause: error });
    }
    if (error instanceof module.APIError && typeof error.status === "number") {
      const body = isRecord(error.error) ? error.error : {};
      const message = `LLM Gateway answered HTTP ${error.status}: ${typeof body.message === "string" ? body.message : error.message}`;
      const details = { status: error.status, code: error.code, type: error.type, param: error.param };
      const retryAfter = parseRetryAfter(error.headers?.get("retry-after") ?? null);
      if (error.status === 429 && error.code === "insufficient_quota") {
        return new InsufficientQuotaError(message, { code: 429, details, cause: error });
      }
      const mapped = errorForHttpStatus(error.status, message, { details, retryAfter });
      return Object.assign(mapped, { cause: error });
    }
    // The Fetch standard reports a network failure, also one while a body is read, as a TypeError.
    if (error instanceof TypeError) return connectionError(error, this.baseUrl);
    if (error instanceof BodyTooLargeError || error instanceof SyntaxError) {
      return new NovaOSServerError(`LLM Gateway answered a body that could not be read: ${error.message}`, {
        cause: error,
      });
    }
    return error;
  }
}
