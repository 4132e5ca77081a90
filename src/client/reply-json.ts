/**
 * An agent's reply body as JSON, read with a byte cap so a hostile or broken
 * agent cannot make the client buffer without bound. Too large, or not JSON,
 * it is the agent's fault: InvalidAgentResponseError (-32006).
 */
import { InvalidAgentResponseError } from "../a2a/errors.js";
import { BodyTooLargeError, readBodyText } from "../http/capped-body.js";

/** The body parsed as JSON; undefined for an empty body. */
export async function readJsonBody(response: Response, maxBytes: number): Promise<unknown> {
  let text: string;
  try {
    text = await readBodyText(response, maxBytes);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    throw new InvalidAgentResponseError(`Reply body exceeds ${maxBytes} bytes`, {
      metadata: { maxBytes: String(maxBytes) },
    });
  }
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidAgentResponseError("Reply body is not valid JSON", {
      details: { data: text.slice(0, 1024) },
    });
  }
}
