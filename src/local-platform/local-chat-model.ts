/**
 * The local LLM gateway's chat model: small, rule-based and deterministic,
 * so an agent that calls an LLM runs offline and every run is reproducible.
 * It reads the conversation, never invents: it answers the last user
 * message from what it was given.
 *
 * - With `tools`, it calls one when `tool_choice` names it or is
 *   `required`, or (`auto`) when a word of four or more letters of a tool's
 *   name appears in the last user message; the arguments fill the
 *   parameters' required properties from that message (`valueFor`).
 * - After tool results it reports them: `<name> returned: <content>`.
 * - Otherwise it answers with the sentences of the context (system and
 *   developer messages, earlier turns, tool results) that share the most
 *   significant words with the last user message (the first two, if more
 *   tie); with no context, `You said: <message>`; with context but nothing
 *   in common, a fixed "found nothing" sentence.
 * - `response_format` `json_object` wraps the answer as `{"answer": …}`,
 *   `json_schema` fills the schema with it; `stop` cuts the answer at the
 *   first stop string, `max_completion_tokens` / `max_tokens` at that many
 *   tokens (`finish_reason` `length`); `n` gives n equal choices.
 *   `temperature`, `top_p`, `seed` and the penalties change nothing.
 */
import type { components } from "../../gen/openapi/llm-gateway.js";
import { isRecord } from "../http/json-fields.js";
import { fnv1a, sentencesOf, significantWords, tokenize } from "./model-text.js";

type ChatRequest = components["schemas"]["ChatCompletionRequest"];
type ChatMessage = components["schemas"]["ChatMessage"];
type FunctionTool = components["schemas"]["FunctionTool"];
type ToolCall = components["schemas"]["ToolCall"];

/** The most tokens a conversation may hold (its prompt). */
export const LOCAL_CONTEXT_WINDOW_TOKENS = 32_768;

/** The answer when the context shares nothing with the question. */
export const NOTHING_FOUND = "I found nothing about that in what I was given.";

export interface ChatChoice {
  readonly content: string | null;
  readonly toolCalls: readonly ToolCall[];
  readonly finishReason: "stop" | "length" | "tool_calls";
}

export interface ChatAnswer {
  /** One per `n`, all equal. */
  readonly choices: readonly ChatChoice[];
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** A request the model cannot answer (400 `invalid_request_error`, naming `param`). */
export class ModelRequestError extends Error {
  override readonly name = "ModelRequestError";
  constructor(
    readonly param: string,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/** The text of a message: its string content, or its text parts one per line. */
export function messageText(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

/** A value of `schema` made from `text`: strings are the text, numbers its first number, objects their required properties. */
export function valueFor(schema: unknown, text: string): unknown {
  if (!isRecord(schema)) return text;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ("const" in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "object" || (type === undefined && isRecord(schema.properties))) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const names = Array.isArray(schema.required) ? schema.required : Object.keys(properties);
    return Object.fromEntries(
      names.flatMap((name) => (typeof name === "string" ? [[name, valueFor(properties[name], text)]] : [])),
    );
  }
  if (type === "array") return [];
  if (type === "boolean") return false;
  if (type === "integer" || type === "number") {
    const found = /-?\d+(?:\.\d+)?/.exec(text)?.[0];
    const number = found === undefined ? 0 : Number(found);
    return type === "integer" ? Math.trunc(number) : number;
  }
  return text;
}

function promptTokens(request: ChatRequest): number {
  let count = request.tools ? tokenize(JSON.stringify(request.tools)).length : 0;
  for (const message of request.messages) {
    count += tokenize(messageText(message)).length;
    for (const call of message.tool_calls ?? []) {
      count += tokenize(`${call.function.name} ${call.function.arguments}`).length;
    }
  }
  return count;
}

/** The tool to call, or undefined for a text answer. */
function toolToCall(request: ChatRequest, question: string, afterToolResult: boolean): FunctionTool | undefined {
  const tools = request.tools ?? [];
  const choice = request.tool_choice ?? "auto";
  if (typeof choice === "object") {
    const named = tools.find((tool) => tool.function.name === choice.function.name);
    if (!named) throw new ModelRequestError("tool_choice", `No tool named ${choice.function.name} in tools`);
    return named;
  }
  if (tools.length === 0 || choice === "none") {
    if (choice === "required") throw new ModelRequestError("tool_choice", "tool_choice is required but no tools given");
    return undefined;
  }
  const asked = significantWords(question);
  const matching = tools.find((tool) =>
    [...significantWords(tool.function.name.replace(/[_-]/g, " "))].some((word) => asked.has(word)),
  );
  if (choice === "required") return matching ?? tools[0];
  return afterToolResult ? undefined : matching;
}

/** The first two sentences of `context` that share the most significant words with `question`. */
function answerFrom(context: readonly string[], question: string): string {
  if (context.length === 0) return `You said: ${question}`;
  const asked = significantWords(question);
  const scored = context
    .flatMap(sentencesOf)
    .map((sentence, index) => ({
      sentence,
      index,
      score: [...significantWords(sentence)].filter((word) => asked.has(word)).length,
    }))
    .filter((entry) => entry.score > 0);
  if (scored.length === 0) return NOTHING_FOUND;
  const top = Math.max(...scored.map((entry) => entry.score));
  return scored
    .filter((entry) => entry.score === top)
    .slice(0, 2)
    .map((entry) => entry.sentence)
    .join(" ");
}

/** `<name> returned: <content>` for each tool result after the last assistant turn. */
function reportToolResults(messages: readonly ChatMessage[]): string {
  const lastAssistant = messages.findLastIndex((message) => message.role === "assistant");
  const calls = new Map((messages[lastAssistant]?.tool_calls ?? []).map((call) => [call.id, call.function.name]));
  return messages
    .slice(lastAssistant + 1)
    .filter((message) => message.role === "tool")
    .map((message) => `${calls.get(message.tool_call_id ?? "") ?? "the tool"} returned: ${messageText(message)}`)
    .join(" ");
}

function formatted(request: ChatRequest, answer: string): string {
  const format = request.response_format;
  if (format?.type === "json_object") return JSON.stringify({ answer });
  if (format?.type === "json_schema") return JSON.stringify(valueFor(format.json_schema?.schema, answer));
  return answer;
}

/** Cuts `text` at the first stop string, then at `limit` tokens. */
function bounded(text: string, stop: ChatRequest["stop"], limit: number | undefined) {
  const stops = stop === undefined || stop === null ? [] : typeof stop === "string" ? [stop] : stop;
  const cut = Math.min(...stops.map((s) => text.indexOf(s)).filter((at) => at >= 0), text.length);
  const tokens = tokenize(text.slice(0, cut));
  if (limit !== undefined && tokens.length > limit) {
    return { content: tokens.slice(0, limit).join(""), tokens: limit, finishReason: "length" as const };
  }
  return { content: tokens.join(""), tokens: tokens.length, finishReason: "stop" as const };
}

/** The model's answer to `request` (already checked against the spec). */
export function answerChat(request: ChatRequest): ChatAnswer {
  const prompt = promptTokens(request);
  if (prompt > LOCAL_CONTEXT_WINDOW_TOKENS) {
    throw new ModelRequestError(
      "messages",
      `The conversation has ${prompt} tokens; the local model takes at most ${LOCAL_CONTEXT_WINDOW_TOKENS}`,
      "context_length_exceeded",
    );
  }
  const { messages } = request;
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  const question = messageText(messages[lastUser] ?? (messages.at(-1) as ChatMessage));
  const afterToolResult = messages.at(-1)?.role === "tool";
  const limit = request.max_completion_tokens ?? request.max_tokens ?? undefined;
  const n = request.n ?? 1;

  const tool = toolToCall(request, question, afterToolResult);
  let choice: ChatChoice;
  let completionTokens: number;
  if (tool) {
    const args = JSON.stringify(valueFor(tool.function.parameters ?? { type: "object" }, question));
    const id = `call_${fnv1a(`${JSON.stringify(messages)}\n${tool.function.name}`)
      .toString(16)
      .padStart(8, "0")}`;
    choice = {
      content: null,
      toolCalls: [{ id, type: "function", function: { name: tool.function.name, arguments: args } }],
      finishReason: "tool_calls",
    };
    completionTokens = tokenize(`${tool.function.name} ${args}`).length;
  } else {
    const context = messages
      .filter((message, index) => message.role !== "user" || index < lastUser)
      .filter((message) => message.role !== "assistant" || messageText(message) !== "")
      .map(messageText);
    const text = afterToolResult ? reportToolResults(messages) : answerFrom(context, question);
    const { content, tokens, finishReason } = bounded(formatted(request, text), request.stop, limit);
    choice = { content, toolCalls: [], finishReason };
    completionTokens = tokens;
  }
  return {
    choices: Array.from({ length: n }, () => choice),
    promptTokens: prompt,
    completionTokens: completionTokens * n,
  };
}
