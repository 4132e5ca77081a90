/**
 * `Attachment`: a file sent with an Execution Gateway run, by URL or inline.
 * Validated on construction, so a bad attachment fails before any request:
 * exactly one of `url` (an absolute URI) and `data` (the bytes, base64 on the
 * wire); `name` a plain file name (no path separator, not `.` or `..`). The
 * bytes never show in logs: `util.inspect` and `JSON.stringify` leave them out.
 */

import type { components } from "../../gen/openapi/gateway.js";
import { NovaOSValidationError } from "../errors/novaos-errors.js";

export type AttachmentJson = components["schemas"]["Attachment"];

export interface AttachmentInit {
  /** MIME type or logical type. */
  type: string;
  /** Where the gateway fetches the file (absolute URI). */
  url?: string | undefined;
  /** The file's bytes (not base64: they are encoded for the wire). */
  data?: Uint8Array | ArrayBuffer | undefined;
  /** A plain file name. */
  name?: string | undefined;
}

function invalid(field: string, message: string): NovaOSValidationError {
  return new NovaOSValidationError(`Invalid attachment: ${message}`, { field: `attachments.${field}` });
}

export class Attachment {
  readonly type: string;
  readonly url: string | undefined;
  readonly name: string | undefined;
  readonly #data: Uint8Array | undefined;

  constructor(init: AttachmentInit) {
    if (typeof init.type !== "string" || init.type.trim() === "") throw invalid("type", "type is required");
    const hasUrl = init.url !== undefined;
    const hasData = init.data !== undefined;
    if (hasUrl === hasData) throw invalid("url", "give exactly one of url and data");
    if (hasUrl && !URL.canParse(init.url as string)) {
      throw invalid("url", `url ${JSON.stringify(init.url)} is not an absolute URI`);
    }
    if (hasData && !(init.data instanceof Uint8Array) && !(init.data instanceof ArrayBuffer)) {
      throw invalid("data", "data must be bytes (Uint8Array or ArrayBuffer)");
    }
    if (init.name !== undefined && (init.name === "" || /[/\\\0]/.test(init.name) || /^\.{1,2}$/.test(init.name))) {
      throw invalid("name", `name ${JSON.stringify(init.name)} must be a plain file name`);
    }
    this.type = init.type;
    this.url = init.url;
    this.name = init.name;
    // A copy: the caller may reuse its buffer before the request is sent.
    this.#data = init.data instanceof ArrayBuffer ? new Uint8Array(init.data.slice(0)) : init.data?.slice();
  }

  /** The bytes, for an inline attachment. */
  get data(): Uint8Array | undefined {
    return this.#data?.slice();
  }

  /** The request body form: unset fields omitted, bytes base64-encoded. (`JSON.stringify` leaves the bytes out.) */
  toWire(): AttachmentJson {
    return {
      type: this.type,
      ...(this.url !== undefined ? { url: this.url } : {}),
      ...(this.#data !== undefined ? { data: Buffer.from(this.#data).toString("base64") } : {}),
      ...(this.name !== undefined ? { name: this.name } : {}),
    };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    const what =
      this.url !== undefined ? `url: ${JSON.stringify(this.url)}` : `data: [${this.#data?.byteLength} bytes]`;
    return `Attachment { type: ${JSON.stringify(this.type)}, ${what}${this.name !== undefined ? `, name: ${JSON.stringify(this.name)}` : ""} }`;
  }
}
