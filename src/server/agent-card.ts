/**
 * The agent card an AgentBuilder describes, and the route that serves it.
 *
 * Everything the builder knows is derived, never restated: skills under the
 * ids they are routed by, `capabilities.streaming` / `pushNotifications` /
 * `extendedAgentCard` from how the builder was constructed, the declared
 * extensions from its registry, `securitySchemes` and `securityRequirements`
 * from its auth mode. What only the publisher knows (description, provider,
 * the reachable interfaces) is passed in. NovaOS pods
 * are published by the platform's gateway; the adapters still serve the card
 * at `/.well-known/agent-card.json` so an agent run locally is discoverable
 * by any A2A client (see docs/decisions.md).
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import {
  AgentCapabilitiesSchema,
  type AgentCard,
  AgentCardSchema,
  type AgentExtension,
  AgentInterfaceSchema,
  type AgentSkill,
} from "../../gen/a2a_pb.js";
import { AGENT_CARD_PATH, JSON_MEDIA_TYPE, PROTOCOL_BINDING_JSONRPC } from "../a2a/constants.js";
import { headerValue } from "../a2a/headers.js";
import { encodeMessage } from "../a2a/protojson.js";
import { A2A_PROTOCOL_VERSION } from "../a2a/version.js";
import type { AgentAuth } from "./auth/agent-auth.js";
import type { Authenticator } from "./auth/authenticator.js";
import type { HttpBinding, HttpReply, HttpRequestLike } from "./http-exchange.js";

type CardInit = MessageInitShape<typeof AgentCardSchema>;
type InterfaceInit = MessageInitShape<typeof AgentInterfaceSchema>;

/** What the publisher adds to the card. Interfaces default to JSON-RPC and protocol version 1.0. */
export interface AgentCardOptions
  extends Pick<
    CardInit,
    | "description"
    | "provider"
    | "documentationUrl"
    | "iconUrl"
    | "securitySchemes"
    | "securityRequirements"
    | "defaultInputModes"
    | "defaultOutputModes"
    | "signatures"
  > {
  supportedInterfaces?: readonly InterfaceInit[];
}

/** What the builder contributes. */
export interface AgentCardFacts {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly skills: readonly AgentSkill[];
  readonly extensions: readonly AgentExtension[];
  readonly streaming: boolean;
  readonly pushNotifications: boolean;
  readonly extendedAgentCard: boolean;
  readonly defaultInputModes: readonly string[];
  readonly defaultOutputModes: readonly string[];
  /** What the auth mode enforces; undefined when none was chosen (the publisher may then say). */
  readonly security: Pick<Authenticator, "securitySchemes" | "securityRequirements"> | undefined;
}

/** With an auth mode chosen, the card's security is the mode's: options that restate it are refused. */
export function checkCardSecurityOptions(options: AgentCardOptions, auth: AgentAuth | undefined): void {
  if (auth === undefined || (options.securitySchemes === undefined && options.securityRequirements === undefined)) {
    return;
  }
  throw new TypeError(
    "The card's securitySchemes and securityRequirements follow from AgentBuilder({ auth }): they cannot be set on the card as well",
  );
}

export function buildAgentCard(facts: AgentCardFacts, options: AgentCardOptions = {}): AgentCard {
  const { supportedInterfaces = [], ...rest } = options;
  return create(AgentCardSchema, {
    ...rest,
    ...(facts.security && {
      securitySchemes: { ...facts.security.securitySchemes },
      securityRequirements: [...facts.security.securityRequirements],
    }),
    name: facts.name,
    version: facts.version,
    description: options.description ?? facts.description,
    supportedInterfaces: supportedInterfaces.map((i) =>
      create(AgentInterfaceSchema, {
        ...i,
        protocolBinding: i.protocolBinding || PROTOCOL_BINDING_JSONRPC,
        protocolVersion: i.protocolVersion || A2A_PROTOCOL_VERSION,
      }),
    ),
    capabilities: create(AgentCapabilitiesSchema, {
      streaming: facts.streaming,
      pushNotifications: facts.pushNotifications,
      extendedAgentCard: facts.extendedAgentCard,
      extensions: [...facts.extensions],
    }),
    defaultInputModes: [...(options.defaultInputModes ?? facts.defaultInputModes)],
    defaultOutputModes: [...(options.defaultOutputModes ?? facts.defaultOutputModes)],
    skills: [...facts.skills],
  });
}

/** How long clients may cache the served card (spec §8.6 asks for Cache-Control and ETag). */
export const AGENT_CARD_MAX_AGE_SECONDS = 300;

/**
 * Serves `GET /.well-known/agent-card.json`. Without configured interfaces,
 * the card lists one interface per served binding at the URL the request
 * reached the agent at.
 */
export class AgentCardBinding implements HttpBinding {
  readonly #card: (baseUrl: string | undefined, bindings: readonly HttpBinding[]) => AgentCard;
  readonly #bindings: () => readonly HttpBinding[];

  constructor(
    card: (options: AgentCardOptions) => AgentCard,
    options: AgentCardOptions,
    bindings: () => readonly HttpBinding[],
  ) {
    this.#bindings = bindings;
    this.#card = (baseUrl, served) =>
      card(
        options.supportedInterfaces || !baseUrl
          ? options
          : {
              ...options,
              supportedInterfaces: served.flatMap((b) =>
                b.protocolBinding ? [{ url: baseUrl, protocolBinding: b.protocolBinding }] : [],
              ),
            },
      );
  }

  async handle(request: HttpRequestLike): Promise<HttpReply | undefined> {
    if (request.path !== AGENT_CARD_PATH) return undefined;
    if (request.method !== "GET" && request.method !== "HEAD") {
      return {
        kind: "body",
        status: 405,
        headers: { allow: "GET, HEAD", "content-type": "text/plain" },
        body: "Method Not Allowed",
      };
    }
    const body = JSON.stringify(encodeMessage(AgentCardSchema, this.#card(request.baseUrl, this.#bindings())));
    const etag = `W/"${await digest(body)}"`;
    const headers = {
      "content-type": JSON_MEDIA_TYPE,
      "cache-control": `public, max-age=${AGENT_CARD_MAX_AGE_SECONDS}`,
      etag,
    };
    const match = headerValue(request.headers, "if-none-match");
    if (match?.split(",").some((tag) => tag.trim() === etag)) return { kind: "body", status: 304, headers, body: "" };
    return { kind: "body", status: 200, headers, body: request.method === "HEAD" ? "" : body };
  }
}

async function digest(text: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Buffer.from(hash).subarray(0, 16).toString("base64url");
}
