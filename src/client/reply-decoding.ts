/**
 * Reply JSON (JSON-RPC results, HTTP+JSON bodies, SSE frames) into the
 * generated reply messages. Replies are read leniently — unknown fields are
 * ignored and REQUIRED fields not enforced (decision P16) — but a reply that
 * does not decode at all, or carries none of the members its type needs, is
 * an InvalidAgentResponseError (-32006), never a half-filled success.
 */
import type { StreamResponse } from "../../gen/a2a_pb.js";
import type { A2AMethodName } from "../a2a/bindings.js";
import { InvalidAgentResponseError, InvalidParamsError } from "../a2a/errors.js";
import { isJsonObject } from "../a2a/json-object.js";
import { loadReflective, readReplyFast } from "./codecs.js";
import type { MethodOutput } from "./transport.js";

/**
 * A SendMessage result must be `{task}` or `{message}`. A bare Task (an
 * object with an `id` and a `status`) or a bare Message (with a `messageId`)
 * is accepted as what it plainly is, for hand-rolled peers.
 */
function normalizeSendMessageResult(json: unknown): unknown {
  if (!isJsonObject(json) || "task" in json || "message" in json) return json;
  if (typeof json.id === "string" && "status" in json) return { task: json };
  if (typeof json.messageId === "string") return { message: json };
  return json;
}

function decodeOrInvalid<T>(decode: () => T, what: string): T {
  try {
    return decode();
  } catch (e) {
    if (!(e instanceof InvalidParamsError)) throw e;
    throw new InvalidAgentResponseError(`The agent's ${what} does not decode: ${e.message}`, {
      errorDetails: e.errorDetails,
      cause: e,
    });
  }
}

/**
 * `json` read as `method`'s reply, then checked: by the generated reader, or,
 * where it bails out, by the reflective path (loaded on first need), whose
 * decode errors become InvalidAgentResponseError. A promise only then.
 */
function decodeChecked<M extends A2AMethodName, R>(
  method: M,
  json: object,
  what: string,
  check: (reply: MethodOutput<M>) => R,
): R | Promise<R> {
  const fast = readReplyFast(method, json);
  if (fast !== undefined) return check(fast);
  return loadReflective().then((r) =>
    check(decodeOrInvalid(() => r.decodeReply(method, json), what) as MethodOutput<M>),
  );
}

/** A reply from its JSON (a promise only when the reflective path answers). */
export function decodeReply<M extends A2AMethodName>(
  method: M,
  json: unknown,
): MethodOutput<M> | Promise<MethodOutput<M>> {
  const value = method === "SendMessage" ? normalizeSendMessageResult(json) : json;
  if (value !== undefined && value !== null && !isJsonObject(value)) {
    throw new InvalidAgentResponseError(`The agent's ${method} reply is not a JSON object`);
  }
  return decodeChecked(method, value ?? {}, `${method} reply`, (reply) => checkReply(method, reply, json));
}

/** Refuses a decoded reply that lacks what its type cannot do without (whatever the binding). */
export function checkReply<M extends A2AMethodName>(method: M, reply: MethodOutput<M>, raw?: unknown): MethodOutput<M> {
  if (method === "SendMessage" && (reply as MethodOutput<"SendMessage">).payload.case === undefined) {
    throw new InvalidAgentResponseError("The agent's SendMessage reply carries neither a task nor a message", {
      details: { data: raw },
    });
  }
  return reply;
}

/** Refuses a frame with none of `task`, `message`, `statusUpdate`, `artifactUpdate`. */
export function checkFrame(frame: StreamResponse, raw?: unknown): StreamResponse {
  if (frame.payload.case === undefined) {
    throw new InvalidAgentResponseError("A stream frame carries none of task, message, statusUpdate, artifactUpdate", {
      details: { data: raw },
    });
  }
  return frame;
}

/** One stream frame from its JSON (a promise only when the reflective path answers, as for `decodeReply`). */
export function decodeFrame(json: unknown): StreamResponse | Promise<StreamResponse> {
  if (!isJsonObject(json)) throw new InvalidAgentResponseError("A stream frame is not a JSON object");
  return decodeChecked("SendStreamingMessage", json, "stream frame", (frame) => checkFrame(frame, json));
}
