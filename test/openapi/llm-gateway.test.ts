import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OperationHandler } from "../platform/contract-server.js";
import { expectRefused, type SpecExchange, startSpecExchange } from "./spec-exchange.js";

// openapi/llm-gateway.yaml: the OpenAI-compatible subset the SDK uses, with OpenAI's error body.

let spec: SpecExchange;
beforeAll(async () => {
  spec = await startSpecExchange(
    "llm-gateway.yaml",
    ["createChatCompletion", "createEmbedding", "listModels", "retrieveModel"],
    "ChatCompletionChunk",
  );
});
afterAll(() => spec.server.close());

const MESSAGES = [
  { role: "system", content: "Be brief." },
  { role: "user", content: [{ type: "text", text: "Weather?" }] },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }],
  },
  { role: "tool", tool_call_id: "call_1", content: "12°C" },
];
const COMPLETION = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_785_000_000,
  model: "gpt-4o",
  choices: [
    { index: 0, message: { role: "assistant", content: "12°C in Oslo." }, finish_reason: "stop", logprobs: null },
  ],
  usage: { prompt_tokens: 40, completion_tokens: 6, total_tokens: 46 },
};
const HEADERS = { "x-novaos-run-id": "run-1", traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" };

describe("openapi/llm-gateway.yaml", () => {
  it("answers a chat completion, with the tool-calling turn types", async () => {
    const body = {
      model: "gpt-4o",
      messages: MESSAGES,
      temperature: 0.2,
      tools: [{ type: "function", function: { name: "weather" } }],
    };
    expect(
      await spec.send("POST", "/v1/chat/completions", {
        body,
        headers: HEADERS,
        answer: { status: 200, body: COMPLETION },
      }),
    ).toEqual([]);
  });

  it("streams chunks that the chunk schema checks", async () => {
    const chunk = (delta: object, finish: string | null) => ({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1_785_000_000,
      model: "gpt-4o",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    let broken = false;
    const stream: OperationHandler = ({ sse }) => {
      const writer = sse();
      writer.event(chunk({ role: "assistant", content: "" }, null));
      writer.event(chunk({ content: "Hi" }, null));
      writer.event(chunk({}, "stop"));
      if (broken) writer.event({ ...chunk({}, null), object: "chat.completion" });
      writer.raw("data: [DONE]\n\n");
      writer.end();
      return undefined;
    };
    const body = {
      model: "gpt-4o",
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
      stream_options: { include_usage: true },
    };
    expect(await spec.send("POST", "/v1/chat/completions", { body, answer: stream })).toEqual([]);
    broken = true;
    const violations = await spec.send("POST", "/v1/chat/completions", { body, answer: stream });
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/createChatCompletion event/);
  });

  it("refuses messages that break the role rules", async () => {
    const bad: [object, string][] = [
      [{ role: "tool", content: "12°C" }, "a tool message without tool_call_id"],
      [{ role: "user", content: null }, "a user message without content"],
      [{ role: "assistant" }, "an assistant message with nothing"],
      [{ role: "user", content: "x", tool_call_id: "c" }, "a tool_call_id outside a tool message"],
      [{ role: "robot", content: "x" }, "an unknown role"],
    ];
    for (const [message, why] of bad) {
      expectRefused(
        await spec.send("POST", "/v1/chat/completions", { body: { model: "m", messages: [message] } }),
        why,
      );
    }
    expectRefused(
      await spec.send("POST", "/v1/chat/completions", { body: { model: "m", messages: [] } }),
      "no messages",
    );
  });

  it("embeds strings and token arrays, never an empty input", async () => {
    const answer = {
      status: 200,
      body: {
        object: "list",
        data: [{ object: "embedding", index: 0, embedding: [0.1, -0.2] }],
        model: "text-embedding-3-small",
        usage: { prompt_tokens: 2, total_tokens: 2 },
      },
    };
    for (const input of ["hello", ["a", "b"], [1, 2, 3], [[1, 2]]]) {
      expect(
        await spec.send("POST", "/v1/embeddings", { body: { model: "text-embedding-3-small", input }, answer }),
        JSON.stringify(input),
      ).toEqual([]);
    }
    expectRefused(await spec.send("POST", "/v1/embeddings", { body: { model: "m", input: [] } }));
  });

  it("lists and retrieves models, and refuses with OpenAI's error body", async () => {
    const model = { id: "gpt-4o", object: "model", created: 1_785_000_000, owned_by: "openai" };
    expect(
      await spec.send("GET", "/v1/models", { answer: { status: 200, body: { object: "list", data: [model] } } }),
    ).toEqual([]);
    expect(await spec.send("GET", "/v1/models/gpt-4o", { answer: { status: 200, body: model } })).toEqual([]);
    const quota = {
      error: { message: "Budget used up", type: "insufficient_quota", param: null, code: "insufficient_quota" },
    };
    expect(await spec.send("GET", "/v1/models", { answer: { status: 429, body: quota } })).toEqual([]);
    expect(
      await spec.send("GET", "/v1/models/nope", { answer: { status: 404, body: { error: "not_found" } } }),
    ).toHaveLength(1);
  });
});
