/**
 * The calling side's ProtoJSON: requests written and replies read by the
 * generated codecs (gen/a2a_json_codecs.ts), reached through their client table,
 * which names no descriptor. A codec answers exactly as protobuf-es would or
 * bails out; then the reflective path answers (reflective.ts), loaded with
 * `import()` on first need. So a request built from plain fields and a
 * well-formed reply never load protobuf-es's reflection, and an unusual one
 * is answered exactly as before, errors included.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { a2aClientJson } from "../../gen/a2a_json_codecs.js";
import type { A2AMethodName } from "../a2a/bindings.js";
import type { MethodInput, MethodOutput } from "./transport.js";

type Reflective = typeof import("./reflective.js");
let reflective: Promise<Reflective> | undefined;

/** The reflective module, loaded once, the first time a call needs it. */
export function loadReflective(): Promise<Reflective> {
  reflective ??= import("./reflective.js");
  return reflective;
}

/** A request as wire JSON: by its generated writer, else the reflective way. */
export function requestJson<M extends A2AMethodName>(
  method: M,
  request: MethodInput<M>,
): JsonObject | Promise<JsonObject> {
  try {
    return JSON.parse(a2aClientJson[method].write(request as never)) as JsonObject;
  } catch {
    // Not a request the generated writer answers: the reflective path does, errors included.
    return loadReflective().then((r) => r.encodeRequest(method, request) as JsonObject);
  }
}

/** A reply read by its generated reader (leniently: a reply), or undefined where the reader bails. */
export function readReplyFast<M extends A2AMethodName>(method: M, json: unknown): MethodOutput<M> | undefined {
  const read = a2aClientJson[method].read;
  if (read === undefined) return undefined;
  try {
    return read(json, false, 0) as MethodOutput<M>;
  } catch {
    // Not a reply the generated reader answers: the caller takes the reflective path.
    return undefined;
  }
}
