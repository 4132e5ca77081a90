import { afterEach, describe, expect, it } from "vitest";
import {
  NovaOSAuthenticationError,
  NovaOSConnectionError,
  NovaOSRateLimitError,
  NovaOSServerError,
  NovaOSValidationError,
} from "../../src/errors/novaos-errors.js";
import { MissingServiceUrlError } from "../../src/http/service-url.js";
import { InsufficientQuotaError, LLMClient, type LLMClientOptions } from "../../src/platform/llm-client.js";
import { ExecutionContext } from "../../src/runtime/execution-context.js";
import { CircuitOpenError } from "../../src/runtime/resilience.js";
import { rejection } from "../discovery/support.js";
import { ManualClock } from "../runtime/manual-clock.js";
import { type ContractServer, type OperationHandler, startContractServer } from "./contract-server.js";
import { type RawServer, startRawServer, writeForever } from "./raw-server.js";

const TOKEN = "exec-token-llm";
const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const CREATED = 1_753_452_000;

let server: ContractServer | RawServer | undefined;
let client: LLMClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const run = new ExecutionContext({
  executionToken: TOKEN,
  runId: "run-1",
  tenantId: "tenant-1",
  agentId: "agent-1",
  userId: "user-1",
  instanceId: "inst-1",
});

async function start(handlers: Record<string, OperationHandler>, options: LLMClientOptions = {}) {
  const contract = await startContractServer({
    spec: "llm-gateway.yaml",
    bearerToken: TOKEN,
    eventSchema: "ChatCompletionChunk",
    handlers,
  });
  server = contract;
  client = new LLMClient({ baseUrl: contract.url, executionContext: run, ...options });
  return { server: contract, client };
}

const completion = (content: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: CREATED,
  model: "gpt-4o-mini",
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
});
const chunk = (content: string | null, finish: string | null = null) => ({
  id: "chatcmpl-2",
  object: "chat.completion.chunk",
  created: CREATED,
  model: "gpt-4o-mini",
  choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }],
});
const models = {
  object: "list",
  data: [
    { id: "gpt-4o", object: "model", created: CREATED, owned_by: "openai" },
    { id: "gpt-4o-mini", object: "model", created: CREATED, owned_by: "openai" },
  ],
};
const openAIError = (status: number, type: string, code: string | null, message = "refused") => ({
  status,
  body: { error: { message, type, param: null, code } },
});
const MESSAGES = [{ role: "user" as const, content: "Hello" }];

describe("LLMClient (contract)", () => {
  it("completes a chat with the run's token, correlation ids and trace context", async () => {
    const { server, client } = await start({ createChatCompletion: () => ({ status: 200, body: completion("Hi!") }) });
    const answer = await client.chat.completions.create(
      { model: "gpt-4o-mini", messages: MESSAGES },
      { headers: { traceparent: TRACEPARENT } },
    );
    expect(answer.choices[0]?.message.content).toBe("Hi!");
    expect(server.violations).toEqual([]);
    const [request] = server.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers["x-novaos-run-id"]).toBe("run-1");
    expect(request?.headers["x-novaos-tenant-id"]).toBe("tenant-1");
    expect(request?.headers["x-novaos-execution-token"]).toBeUndefined();
    expect(request?.headers.traceparent).toBe(TRACEPARENT);
    expect(request?.body).toEqual({ model: "gpt-4o-mini", messages: MESSAGES });
  });

  it("streams a chat completion chunk by chunk, to [DONE]", async () => {
    const { server, client } = await start({
      createChatCompletion: ({ sse }) => {
        const stream = sse();
        for (const piece of ["Once", " upon", " a time"]) stream.event(chunk(piece));
        stream.event(chunk(null, "stop"));
        stream.raw("data: [DONE]\n\n");
        stream.end();
        return undefined;
      },
    });
    const pieces: string[] = [];
    for await (const part of await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: MESSAGES,
      stream: true,
    })) {
      pieces.push(part.choices[0]?.delta.content ?? "");
    }
    expect(pieces.join("")).toBe("Once upon a time");
    expect(server.requests[0]?.headers.accept).toBe("text/event-stream");
    expect(server.violations).toEqual([]);
  });

  it("creates embeddings, lists and retrieves models, and answers availableModels and hasModel", async () => {
    const { server, client } = await start({
      createEmbedding: ({ body }) => ({
        status: 200,
        body: {
          object: "list",
          data: [
            {
              object: "embedding",
              index: 0,
              // openai asks for base64 (little-endian float32) unless told otherwise, and decodes it.
              embedding:
                (body as { encoding_format?: string }).encoding_format === "base64"
                  ? Buffer.from(new Float32Array([0.5, 0.25]).buffer).toString("base64")
                  : [0.5, 0.25],
            },
          ],
          model: "text-embedding-3-small",
          usage: { prompt_tokens: 2, total_tokens: 2 },
        },
      }),
      listModels: () => ({ status: 200, body: models }),
      retrieveModel: ({ params }) =>
        params.model === "gpt-4o"
          ? { status: 200, body: models.data[0] }
          : openAIError(404, "not_found_error", "model_not_found"),
    });
    const embedding = await client.embeddings.create({ model: "text-embedding-3-small", input: "hello" });
    expect(embedding.data[0]?.embedding).toEqual([0.5, 0.25]);
    expect(await client.availableModels()).toEqual(["gpt-4o", "gpt-4o-mini"]);
    expect(await client.hasModel("gpt-4o-mini")).toBe(true);
    expect(await client.hasModel("o3")).toBe(false);
    expect((await client.models.retrieve("gpt-4o")).owned_by).toBe("openai");
    const missing = await rejection(client.models.retrieve("o3"));
    expect(missing).toMatchObject({ code: 404, details: { code: "model_not_found" } });
    expect(server.violations).toEqual([]);
  });

  it("maps OpenAI's error bodies to the SDK's typed errors", async () => {
    let reply = openAIError(401, "authentication_error", "invalid_api_key");
    const { client } = await start({ createChatCompletion: () => reply }, { resilience: { maxAttempts: 1 } });
    const cases: [ReturnType<typeof openAIError>, abstract new (...args: never[]) => Error][] = [
      [openAIError(400, "invalid_request_error", "context_length_exceeded"), NovaOSValidationError],
      [openAIError(401, "authentication_error", "invalid_api_key"), NovaOSAuthenticationError],
      [openAIError(403, "permission_error", "model_not_allowed"), NovaOSAuthenticationError],
      [openAIError(429, "rate_limit_error", "rate_limit_exceeded"), NovaOSRateLimitError],
      [openAIError(500, "api_error", null), NovaOSServerError],
    ];
    for (const [answer, type] of cases) {
      reply = answer;
      const error = await rejection(client.chat.completions.create({ model: "gpt-4o-mini", messages: MESSAGES }));
      expect(error, String(answer.status)).toBeInstanceOf(type);
      expect((error as Error).message).toContain("refused");
    }
  });

  it("retries a 503, hands the last transient answer to openai, and never retries a spent budget", async () => {
    const clock = new ManualClock();
    let replies = [openAIError(503, "api_error", null), { status: 200, body: completion("after a blip") }];
    const { server, client } = await start(
      { createChatCompletion: () => replies.shift() ?? openAIError(503, "api_error", null) },
      { resilience: { clock, random: () => 0.5, timeoutMs: 0 } },
    );
    const retried = client.chat.completions.create({ model: "gpt-4o-mini", messages: MESSAGES });
    clock.advance(await clock.nextSleep());
    expect((await retried).choices[0]?.message.content).toBe("after a blip");
    expect(server.requests).toHaveLength(2);

    replies = [];
    const exhausted = client.chat.completions.create({ model: "gpt-4o-mini", messages: MESSAGES });
    clock.advance(await clock.nextSleep());
    clock.advance(await clock.nextSleep());
    expect(await rejection(exhausted)).toMatchObject({ statusCode: 503 });
    expect(server.requests).toHaveLength(5);

    replies = [openAIError(429, "insufficient_quota", "insufficient_quota", "budget used up")];
    const spent = await rejection(client.chat.completions.create({ model: "gpt-4o-mini", messages: MESSAGES }));
    expect(spent).toBeInstanceOf(InsufficientQuotaError);
    expect(spent).toBeInstanceOf(NovaOSRateLimitError);
    expect((spent as InsufficientQuotaError).isRetryable).toBe(false);
    expect(server.requests).toHaveLength(6);
  });

  it("opens the breaker after 5 transient failures and refuses without sending", async () => {
    const { server, client } = await start(
      { listModels: () => openAIError(502, "api_error", null) },
      { resilience: { maxAttempts: 1, clock: new ManualClock(), timeoutMs: 0 } },
    );
    for (let i = 0; i < 5; i++) await rejection(client.availableModels());
    expect(await rejection(client.availableModels())).toBeInstanceOf(CircuitOpenError);
    expect(server.requests).toHaveLength(5);
  });
});

describe("LLMClient bad answers", () => {
  async function raw(answer: Parameters<typeof startRawServer>[0], options: LLMClientOptions = {}) {
    const rawServer = await startRawServer(answer);
    server = rawServer;
    client = new LLMClient({ baseUrl: rawServer.url, resilience: { maxAttempts: 1 }, ...options });
    return client;
  }

  it("refuses an HTML page, a JSON answer to a stream, and garbage, as NovaOSServerError", async () => {
    let answer = (res: import("node:http").ServerResponse) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html>proxy login</html>");
    const llm = await raw((_req, res) => answer(res));
    expect(await rejection(llm.chat.completions.create({ model: "m", messages: MESSAGES }))).toBeInstanceOf(
      NovaOSServerError,
    );
    answer = (res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completion("x")));
    expect(
      await rejection(llm.chat.completions.create({ model: "m", messages: MESSAGES, stream: true })),
    ).toBeInstanceOf(NovaOSServerError);
    answer = (res) => res.writeHead(200, { "content-type": "application/json" }).end("{garbage");
    expect(await rejection(llm.chat.completions.create({ model: "m", messages: MESSAGES }))).toBeInstanceOf(
      NovaOSServerError,
    );
  });

  it("bounds an endless JSON answer and an endless event-stream line", async () => {
    let stream = false;
    const llm = await raw(
      (_req, res) => {
        res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" });
        writeForever(res, stream ? `data: ${"x".repeat(8192)}` : `{"id":"${"x".repeat(8192)}`);
      },
      { maxResponseBytes: 256 * 1024 },
    );
    expect(await rejection(llm.chat.completions.create({ model: "m", messages: MESSAGES }))).toBeInstanceOf(
      NovaOSServerError,
    );
    stream = true;
    const chunks = await llm.chat.completions.create({ model: "m", messages: MESSAGES, stream: true });
    const error = await rejection(
      (async () => {
        for await (const _ of chunks) {
          /* never reached: the first line never ends */
        }
      })(),
    );
    expect(error).toBeInstanceOf(NovaOSServerError);
  });

  it("cuts an HTML error page's body and keeps its status", async () => {
    const llm = await raw((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      writeForever(res, "<p>bad gateway</p>");
    });
    expect(await rejection(llm.availableModels())).toMatchObject({ statusCode: 502 });
  });

  it("calls a stream cut midway a NovaOSConnectionError", async () => {
    const llm = await raw((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify(chunk("partial"))}\n\n`);
      setImmediate(() => res.socket?.destroy());
    });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const part of await llm.chat.completions.create({ model: "m", messages: MESSAGES, stream: true })) {
          seen.push(part.choices[0]?.delta.content ?? "");
        }
      })(),
    );
    expect(seen).toEqual(["partial"]);
    expect(error).toBeInstanceOf(NovaOSConnectionError);
  });

  it("ends a call with the caller's abort reason", async () => {
    const llm = await raw(() => {
      /* never answers */
    });
    const controller = new AbortController();
    const call = llm.chat.completions.create({ model: "m", messages: MESSAGES }, { signal: controller.signal });
    const reason = new Error("user went away");
    setImmediate(() => controller.abort(reason));
    expect(await rejection(call)).toBe(reason);
  });
});

describe("LLMClient configuration", () => {
  it("reads LLM_GATEWAY_URL, and names it when unset", () => {
    expect(() => new LLMClient({ env: {} })).toThrow(MissingServiceUrlError);
    expect(() => new LLMClient({ env: {} })).toThrow(/LLM_GATEWAY_URL/);
    const fromEnv = new LLMClient({ env: { LLM_GATEWAY_URL: "http://llm-gateway:4000/" } });
    expect(fromEnv.baseUrl).toBe("http://llm-gateway:4000");
    void fromEnv.close();
  });

  it("sends no credentials without a run or auth (a local gateway)", async () => {
    const llm = await (async () => {
      const rawServer = await startRawServer((_req, res) =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(models)),
      );
      server = rawServer;
      client = new LLMClient({ baseUrl: rawServer.url });
      return { client, rawServer };
    })();
    expect(await llm.client.availableModels()).toEqual(["gpt-4o", "gpt-4o-mini"]);
    expect(llm.rawServer.requests[0]?.headers.authorization).toBeUndefined();
  });
});
