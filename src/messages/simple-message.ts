/**
 * The reference's convenience input shape, for callers who do not build A2A
 * types: a `SimpleMessage` of `MessagePart`s (content plus content type),
 * optionally attributed to an `Author`. `Client.sendMessage` turns one into
 * an A2A message (`toMessage`), and MessageParser / MessageValidator read it
 * as the legacy format (NovaOS payloads in its `metadata`). An agent's
 * output is never one of these. The wire (`toJSON`) keys are the reference's
 * field names: `content`, `content_type`, `metadata`, `parts`, `author`,
 * `name`, `role`.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { isJsonObject } from "../a2a/json-object.js";
import { NovaOSValidationError } from "../errors/novaos-errors.js";

function requiredString(json: unknown, field: string, what: string): string {
  const value = isJsonObject(json) ? json[field] : undefined;
  if (typeof value !== "string") throw new NovaOSValidationError(`${what} needs a string ${field}`, { field });
  return value;
}

function optionalString(json: JsonObject, ...fields: string[]): string | undefined {
  for (const field of fields) if (typeof json[field] === "string") return json[field] as string;
  return undefined;
}

const optionalObject = (value: unknown): JsonObject | undefined => (isJsonObject(value) ? value : undefined);

/** Who wrote a message (attribution only: A2A has no author field, so it travels in message metadata). */
export class Author {
  readonly name: string;
  readonly role: string | undefined;
  readonly metadata: JsonObject | undefined;

  constructor(name: string, options: { role?: string; metadata?: JsonObject } = {}) {
    this.name = name;
    this.role = options.role;
    this.metadata = options.metadata;
  }

  /** From `{ name, role?, metadata? }`; NovaOSValidationError without a string `name`. */
  static fromJson(json: unknown): Author {
    const name = requiredString(json, "name", "An author");
    const object = json as JsonObject;
    return new Author(name, { role: optionalString(object, "role"), metadata: optionalObject(object.metadata) });
  }

  toJSON(): JsonObject {
    return {
      name: this.name,
      ...(this.role !== undefined ? { role: this.role } : {}),
      ...(this.metadata !== undefined ? { metadata: this.metadata } : {}),
    };
  }
}

/** Content plus its content type; sent as an A2A text part whose `mediaType` is the content type. */
export class MessagePart {
  readonly content: string;
  /** A media type; undefined means `text/plain`. */
  readonly contentType: string | undefined;
  readonly metadata: JsonObject | undefined;

  constructor(content: string, options: { contentType?: string; metadata?: JsonObject } = {}) {
    this.content = content;
    this.contentType = options.contentType;
    this.metadata = options.metadata;
  }

  /** From `{ content, content_type?, metadata? }` (`contentType` too); NovaOSValidationError without a string `content`. */
  static fromJson(json: unknown): MessagePart {
    const content = requiredString(json, "content", "A message part");
    const object = json as JsonObject;
    return new MessagePart(content, {
      contentType: optionalString(object, "content_type", "contentType"),
      metadata: optionalObject(object.metadata),
    });
  }

  toJSON(): JsonObject {
    return {
      content: this.content,
      ...(this.contentType !== undefined ? { content_type: this.contentType } : {}),
      ...(this.metadata !== undefined ? { metadata: this.metadata } : {}),
    };
  }
}

/** A multi-part input message (the reference's `models.Message`; `Message` here is A2A's). */
export class SimpleMessage {
  readonly parts: readonly MessagePart[];
  readonly author: Author | undefined;
  readonly metadata: JsonObject | undefined;

  /** A string among `parts` is a text part. */
  constructor(parts: readonly (MessagePart | string)[] = [], options: { author?: Author; metadata?: JsonObject } = {}) {
    this.parts = parts.map((p) => (typeof p === "string" ? new MessagePart(p) : p));
    this.author = options.author;
    this.metadata = options.metadata;
  }

  /** From `{ parts?, author?, metadata? }`; NovaOSValidationError for a part or author that does not read. */
  static fromJson(json: unknown): SimpleMessage {
    if (!isJsonObject(json)) throw new NovaOSValidationError("A message must be a JSON object", { field: "message" });
    const parts = json.parts === undefined ? [] : json.parts;
    if (!Array.isArray(parts)) throw new NovaOSValidationError("A message's parts must be a list", { field: "parts" });
    return new SimpleMessage(parts.map(MessagePart.fromJson), {
      ...(json.author !== undefined && json.author !== null ? { author: Author.fromJson(json.author) } : {}),
      metadata: optionalObject(json.metadata),
    });
  }

  toJSON(): JsonObject {
    return {
      parts: this.parts.map((p) => p.toJSON()),
      ...(this.author !== undefined ? { author: this.author.toJSON() } : {}),
      ...(this.metadata !== undefined ? { metadata: this.metadata } : {}),
    };
  }

  /** True when there is at least one part and no part's content is empty (the reference's rule; it never throws). */
  validate(): boolean {
    return this.parts.length > 0 && this.parts.every((p) => p.content !== "");
  }
}
