/**
 * Reading a reply body with a byte cap, so a hostile or broken agent cannot
 * make the client buffer without bound. The connection is released whatever
 * happens: read to the end, or cancelled at the cap.
 */
import { bodyChunks } from "../a2a/body-chunks.js";
import { InvalidAgentResponseError } from "../a2a/errors.js";

export interface ReadBodyOptions {
  /** Return the first `maxBytes` instead of failing (for diagnostics from error bodies). */
  truncate?: boolean;
}

export async function readBodyText(
  response: Response,
  maxBytes: number,
  options: ReadBodyOptions = {},
): Promise<string> {
  const body = response.body;
  if (body === null) return "";
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for await (const chunk of bodyChunks(body)) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) {
      if (options.truncate) return text + decoder.decode(chunk.subarray(0, chunk.byteLength - (bytes - maxBytes)));
      throw new InvalidAgentResponseError(`Reply body exceeds ${maxBytes} bytes`, {
        metadata: { maxBytes: String(maxBytes) },
      });
    }
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/** The body parsed as JSON; a body that is not JSON is the agent's fault (-32006). */
export async function readJsonBody(response: Response, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(response, maxBytes);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidAgentResponseError("Reply body is not valid JSON", {
      details: { data: text.slice(0, 1024) },
    });
  }
}
