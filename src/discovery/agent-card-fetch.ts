/**
 * Fetching one agent's public Agent Card from its well-known path (A2A
 * §8.2): the `A2A-Version` header, the caller's credentials if the origin is
 * gated, a deadline, a byte cap, the HTTP status mapped to the SDK's typed
 * errors, and the body decoded into the generated `AgentCard`. The raw JSON
 * is kept beside the decoded card: signatures are verified over the card as
 * published, never over a re-serialised copy.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { type AgentCard, AgentCardSchema } from "../../gen/a2a_pb.js";
import { AGENT_CARD_PATH, JSON_MEDIA_TYPE } from "../a2a/constants.js";
import { isJsonObject } from "../a2a/json-object.js";
import { decodeMessage } from "../a2a/protojson.js";
import { A2A_PROTOCOL_VERSION, A2A_VERSION_HEADER } from "../a2a/version.js";
import { NovaOSValidationError } from "../errors/novaos-errors.js";
import type { AuthProvider } from "../http/auth.js";
import { CallScope } from "../http/call-scope.js";
import { BodyTooLargeError, readBodyText, readErrorBody } from "../http/capped-body.js";
import { platformHttpError } from "../http/platform-http-error.js";
import { connectionError } from "../http/transport-failure.js";

/** Discovery calls give up after this long unless told otherwise. */
export const DEFAULT_DISCOVERY_TIMEOUT_MS = 10_000;
/** A card larger than this is refused: real cards are a few KiB, and the origin may be hostile. */
export const DEFAULT_MAX_AGENT_CARD_BYTES = 1024 * 1024;

export interface AgentCardRequestOptions {
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch | undefined;
  /** Credentials, for an origin that gates even the public card. */
  auth?: AuthProvider | undefined;
  /** Extra request headers. */
  headers?: Record<string, string> | undefined;
  /** Deadline in milliseconds; default {@link DEFAULT_DISCOVERY_TIMEOUT_MS}, `0` for none. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Default {@link DEFAULT_MAX_AGENT_CARD_BYTES}. */
  maxCardBytes?: number | undefined;
}

/** Validators of a card already held, for a conditional request (A2A §8.6.2). */
export interface CardValidators {
  etag?: string | undefined;
  lastModified?: string | undefined;
}

/** The response headers that decide how long a card stays fresh. */
export interface CardCacheHeaders {
  cacheControl: string | undefined;
  age: string | undefined;
}

export type AgentCardResponse =
  | { notModified: true; cache: CardCacheHeaders }
  | {
      notModified: false;
      card: AgentCard;
      /** The card exactly as published. */
      json: JsonObject;
      cache: CardCacheHeaders;
      validators: CardValidators;
    };

/**
 * `{baseUrl}/.well-known/agent-card.json`. A URL that already ends in the
 * well-known path, or in `.json` (a card published elsewhere), is the card's
 * own URL and is kept: no agent is addressed by a JSON file's URL.
 */
export function agentCardUrl(baseUrl: string | URL): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new NovaOSValidationError(`Not an absolute URL: ${JSON.stringify(String(baseUrl))}`, { field: "baseUrl" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new NovaOSValidationError(`Agent Cards are fetched over HTTP(S), not ${url.protocol}`, { field: "baseUrl" });
  }
  if (!url.pathname.endsWith(AGENT_CARD_PATH) && !url.pathname.endsWith(".json"))
    url.pathname = url.pathname.replace(/\/+$/, "") + AGENT_CARD_PATH;
  return url.href;
}

function unusable(cardUrl: string, why: string, cause?: unknown): NovaOSValidationError {
  return new NovaOSValidationError(`${cardUrl} is not a usable Agent Card: ${why}`, { reason: why, cause });
}

async function decodeCard(response: Response, cardUrl: string, maxBytes: number): Promise<[AgentCard, JsonObject]> {
  let text: string;
  try {
    text = await readBodyText(response, maxBytes);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    throw unusable(cardUrl, `larger than ${maxBytes} bytes`, error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw unusable(cardUrl, "the body is not JSON", error);
  }
  if (!isJsonObject(json)) throw unusable(cardUrl, "the body is not a JSON object");
  try {
    return [decodeMessage(AgentCardSchema, json, { validateRequired: false }), json];
  } catch (error) {
    throw unusable(cardUrl, (error as Error).message, error);
  }
}

/**
 * One GET of the card at `cardUrl`. A 304 (only possible with validators) is
 * `{ notModified: true }`; every other non-2xx is a typed error: 404
 * NovaOSAgentNotFoundError, 401/403 NovaOSAuthenticationError, 429
 * NovaOSRateLimitError, 5xx NovaOSServerError, other 4xx or an unusable body
 * NovaOSValidationError; no answer at all is NovaOSConnectionError.
 */
export async function requestAgentCard(
  cardUrl: string,
  options: AgentCardRequestOptions & { validators?: CardValidators | undefined } = {},
): Promise<AgentCardResponse> {
  const headers = new Headers(options.headers);
  headers.set("Accept", JSON_MEDIA_TYPE);
  headers.set(A2A_VERSION_HEADER, A2A_PROTOCOL_VERSION);
  const { etag, lastModified } = options.validators ?? {};
  if (etag) headers.set("If-None-Match", etag);
  if (lastModified) headers.set("If-Modified-Since", lastModified);
  for (const [name, value] of Object.entries((await options.auth?.headers()) ?? {})) headers.set(name, value);

  using scope = new CallScope(options.signal, options.timeoutMs ?? DEFAULT_DISCOVERY_TIMEOUT_MS);
  try {
    const response = await (options.fetch ?? fetch)(cardUrl, { headers, signal: scope.signal });
    const cache: CardCacheHeaders = {
      cacheControl: response.headers.get("cache-control") ?? undefined,
      age: response.headers.get("age") ?? undefined,
    };
    if (response.status === 304 && (etag || lastModified)) {
      await response.body?.cancel();
      return { notModified: true, cache };
    }
    if (!response.ok) {
      throw platformHttpError(response, await readErrorBody(response), { operation: `GET ${cardUrl}` });
    }
    const [card, json] = await decodeCard(response, cardUrl, options.maxCardBytes ?? DEFAULT_MAX_AGENT_CARD_BYTES);
    return {
      notModified: false,
      card,
      json,
      cache,
      validators: {
        etag: response.headers.get("etag") ?? undefined,
        lastModified: response.headers.get("last-modified") ?? undefined,
      },
    };
  } catch (error) {
    // Typed errors (a guard refusal among them) pass through; anything else is a failed connection.
    throw scope.abortError() ?? connectionError(error, cardUrl);
  }
}
