/**
 * A2A extensions (spec §4.6): declaration on the agent card, activation per
 * request through `A2A-Extensions`, and the data an extension carries at
 * `metadata[<uri>]`. Both halves use one registry: a server activates what a
 * caller requested, a client negotiates against what a card declares.
 * Activation is neither authorisation nor encryption.
 */
import { create, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { type AgentCard, type AgentExtension, AgentExtensionSchema } from "../../gen/a2a_pb.js";
import {
  A2A_EXTENSIONS_HEADER,
  formatExtensionsHeader,
  normalizeExtensionUris,
  parseExtensionsHeader,
} from "./extensions-header.js";
import type { HeadersLike } from "./headers.js";

/** One extension. Subclass it, or construct it with the fields. */
export class A2AExtension {
  readonly uri: string;
  readonly description: string;
  readonly required: boolean;

  constructor(init: { uri: string; description?: string; required?: boolean }) {
    this.uri = init.uri;
    this.description = init.description ?? "";
    this.required = init.required ?? false;
  }

  /** The card's `AgentExtension` entry. */
  declaration(): AgentExtension {
    const params = this.params();
    return create(AgentExtensionSchema, {
      uri: this.uri,
      description: this.description,
      required: this.required,
      ...(params ? { params } : {}),
    });
  }

  /** `AgentExtension.params` on the card; none by default. */
  params(): JsonObject | undefined {
    return undefined;
  }

  /** Interprets the raw `metadata[uri]` (undefined when the caller published nothing). Called lazily. */
  readValue(value: JsonValue | undefined): unknown {
    return value;
  }

  /** What a client publishes at `metadata[uri]` on each request; undefined publishes nothing. */
  requestValue(): JsonValue | undefined {
    return undefined;
  }
}

type Metadata = JsonObject | undefined | null;

/** The outcome of negotiation for one request. Every URI list is sorted. */
export class ExtensionActivation {
  readonly activated: readonly string[];
  readonly requested: readonly string[];
  readonly ignored: readonly string[];
  readonly unmetRequired: readonly string[];
  readonly #registry: ExtensionRegistry | undefined;
  readonly #metadata: readonly Metadata[];

  constructor(init: {
    activated?: Iterable<string>;
    requested?: Iterable<string>;
    ignored?: Iterable<string>;
    unmetRequired?: Iterable<string>;
    registry?: ExtensionRegistry;
    /** Metadata maps, most authoritative first (request params `metadata`, then `message.metadata`). */
    metadata?: readonly Metadata[];
  }) {
    const sorted = (uris: Iterable<string> | undefined) => normalizeExtensionUris(uris ?? []);
    this.activated = sorted(init.activated);
    this.requested = sorted(init.requested);
    this.ignored = sorted(init.ignored);
    this.unmetRequired = sorted(init.unmetRequired);
    this.#registry = init.registry;
    this.#metadata = init.metadata ?? [];
  }

  isActive(uri: string): boolean {
    return this.activated.includes(uri);
  }

  /** The `A2A-Extensions` value naming the activated extensions, or undefined when none. */
  headerValue(): string | undefined {
    return formatExtensionsHeader(this.activated);
  }

  /** `{ "A2A-Extensions": … }` when something is active, else `{}`. */
  responseHeaders(): Record<string, string> {
    const value = this.headerValue();
    return value === undefined ? {} : { [A2A_EXTENSIONS_HEADER]: value };
  }

  /** Why the request cannot be served (-32008), or undefined. */
  unmetRequirementReason(): string | undefined {
    if (this.unmetRequired.length === 0) return undefined;
    return `Required extension(s) not activated: ${this.unmetRequired.join(", ")}`;
  }

  /**
   * The extension's data for this request, read through its `readValue`
   * (called even when nothing was published). Undefined when the extension is
   * not active or not registered.
   */
  value(uri: string): unknown {
    const extension = this.#registry?.get(uri);
    if (!extension || !this.isActive(uri)) return undefined;
    const holder = this.#metadata.find((m) => m && Object.hasOwn(m, uri));
    return extension.readValue(holder ? (holder[uri] as JsonValue) : undefined);
  }
}

/** The extensions one agent or client knows. URIs match exactly; duplicates are refused. */
export class ExtensionRegistry {
  readonly #extensions = new Map<string, A2AExtension>();

  constructor(extensions: Iterable<A2AExtension> = []) {
    for (const extension of extensions) this.register(extension);
  }

  register<E extends A2AExtension>(extension: E): E {
    if (!extension.uri) throw new TypeError("An extension needs a non-empty uri");
    if (this.#extensions.has(extension.uri)) throw new TypeError(`Extension already registered: ${extension.uri}`);
    this.#extensions.set(extension.uri, extension);
    return extension;
  }

  get(uri: string): A2AExtension | undefined {
    return this.#extensions.get(uri);
  }

  /** URIs in registration order. */
  get uris(): string[] {
    return [...this.#extensions.keys()];
  }

  get requiredUris(): string[] {
    return [...this.#extensions.values()].filter((e) => e.required).map((e) => e.uri);
  }

  declarations(): AgentExtension[] {
    return [...this.#extensions.values()].map((e) => e.declaration());
  }

  /**
   * Serving side: activated = requested ∩ registered; ignored = requested −
   * registered (not an error); unmet = required − activated.
   */
  activate(headers: HeadersLike | null | undefined, ...metadata: Metadata[]): ExtensionActivation {
    const requested = parseExtensionsHeader(headers);
    const activated = requested.filter((uri) => this.#extensions.has(uri));
    return new ExtensionActivation({
      requested,
      activated,
      ignored: requested.filter((uri) => !this.#extensions.has(uri)),
      unmetRequired: this.requiredUris.filter((uri) => !activated.includes(uri)),
      registry: this,
      metadata,
    });
  }

  /**
   * Calling side: activated = declared by the card ∩ registered; ignored =
   * registered − declared; unmet = required by the card − registered.
   */
  negotiateCard(card: Pick<AgentCard, "capabilities">): ExtensionActivation {
    const declared = card.capabilities?.extensions ?? [];
    const declaredUris = declared.map((e) => e.uri);
    return new ExtensionActivation({
      activated: declaredUris.filter((uri) => this.#extensions.has(uri)),
      ignored: this.uris.filter((uri) => !declaredUris.includes(uri)),
      unmetRequired: declared.filter((e) => e.required && !this.#extensions.has(e.uri)).map((e) => e.uri),
    });
  }

  /** `{ "A2A-Extensions": … }` naming every registered extension, or `{}`. */
  requestHeaders(): Record<string, string> {
    const value = formatExtensionsHeader(this.uris);
    return value === undefined ? {} : { [A2A_EXTENSIONS_HEADER]: value };
  }

  /** `{ [uri]: requestValue() }` for every extension that publishes something, computed per call. */
  requestMetadata(): JsonObject {
    const out: JsonObject = {};
    for (const extension of this.#extensions.values()) {
      const value = extension.requestValue();
      if (value !== undefined) out[extension.uri] = value;
    }
    return out;
  }
}
