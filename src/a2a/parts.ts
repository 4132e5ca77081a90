/**
 * Parts (spec §4.1.6) for hand-built messages and artifacts: text, structured
 * data, and files inline or by URL. Each is a generated `Part`, ready for
 * `userMessage`, `ctx.taskUpdater.addArtifact` or any A2A call. A part names
 * a `mediaType` only when the caller gives one; a reader treats a text part
 * without one as `text/plain`.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import type { Part } from "../../gen/a2a_pb.js";
import { part } from "./part-value.js";
import type { FieldViolation } from "./required-fields.js";

/** What every part may carry besides its content. */
export interface PartOptions {
  /** The content's media type (`text/markdown`, `application/json`, `image/png`…). */
  mediaType?: string;
  /** Free-form metadata of the part. */
  metadata?: JsonObject;
}

/** What a file part may carry besides its content. */
export interface FilePartOptions extends PartOptions {
  /** The file's name, as a recipient should save it. */
  filename?: string;
}

/** A text part. */
export function textPart(text: string, options: PartOptions = {}): Part {
  return part({ case: "text", value: text }, options);
}

// In a file of its own: it needs protobuf-es's reflection (a bundler splits code by file).
export { dataPart } from "./data-part.js";

/** A file part with its bytes inline (`raw`, base64 in JSON). */
export function filePart(bytes: Uint8Array, options: FilePartOptions = {}): Part {
  return part({ case: "raw", value: bytes }, options);
}

/** A file part by reference: the recipient fetches `url`, which must be absolute (RangeError otherwise). */
export function urlPart(url: string, options: FilePartOptions = {}): Part {
  if (!URL.canParse(url)) throw new RangeError(`urlPart needs an absolute URL, got ${JSON.stringify(url)}`);
  return part({ case: "url", value: url }, options);
}

/** Whether a part carries something: a non-empty text, bytes or URL, or any data value (null included). */
function hasContent(part: Part): boolean {
  const content = part.content;
  switch (content.case) {
    case "text":
    case "url":
      return content.value !== "";
    case "raw":
      return content.value.byteLength > 0;
    case "data":
      return true;
    default:
      return false;
  }
}

/**
 * What is wrong with the parts of a message a caller sent, by JSON path
 * under `path` (e.g. `message.parts`): a part with no content at all (`{}`,
 * or `{"txt": "hi"}`, whose unknown key is ignored) names its index; parts
 * that are all empty (`[{"text": ""}]`) name the list. A skill must never
 * run on nothing.
 */
export function partViolations(parts: readonly Part[], path: string): FieldViolation[] {
  const out: FieldViolation[] = [];
  let anyContent = false;
  // An index loop: this runs on every message, and an entries() iterator costs an array per part.
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Part;
    if (part.content.case === undefined) {
      out.push({
        field: `${path}[${i}]`,
        description: `${path}[${i}] has no content: set one of text, raw, url or data`,
      });
    } else if (!anyContent) {
      anyContent = hasContent(part);
    }
  }
  if (out.length === 0 && parts.length > 0 && !anyContent) {
    out.push({ field: path, description: `${path}: every part is empty; send at least one part with content` });
  }
  return out;
}
