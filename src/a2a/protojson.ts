/**
 * A2A messages to and from their JSON form: the proto3 JSON mapping of the
 * generated types (protobuf-es), as spec §5.5 requires. Readers accept the
 * proto field names too and ignore unknown fields (§5.7); writers emit every
 * REQUIRED field. A payload that does not decode is an InvalidParamsError
 * carrying a `google.rpc.BadRequest` with the offending fields.
 *
 * The A2A messages go through generated codecs first (gen/a2a_json.ts, see
 * tools/protoc-gen-a2a-json.ts): same results, a fraction of the cost. They
 * bail out on anything unusual, and the reflective path (protobuf-es) then
 * answers, so errors and edge cases are always protobuf-es's own.
 *
 * Two rules protobuf-es does not make: a message holding a number JSON
 * cannot write (NaN, ±Infinity; `1e400` parses to Infinity) does not decode
 * (-32602 naming where), and is written with `null` in its place; and a
 * request holding more JSON values than `MAX_REQUEST_VALUES` is refused
 * (request-limits.ts).
 */
import {
  type DescField,
  type DescMessage,
  fromJson,
  type JsonValue,
  type MessageShape,
  toJson,
} from "@bufbuild/protobuf";
import { isFieldError } from "@bufbuild/protobuf/reflect";
import { a2aJsonCodecs } from "../../gen/a2a_json.js";
import { BAD_REQUEST_TYPE } from "./error-wire.js";
import { InvalidParamsError } from "./errors.js";
import { OVER_BUDGET, setValueBudget } from "./json-codec-runtime.js";
import { nonFiniteViolations, withFiniteNumbers } from "./message-values.js";
import { countJsonValues, MAX_REQUEST_VALUES, tooManyValues } from "./request-limits.js";
import { addRequiredZeros, type FieldViolation, requiredFieldViolations } from "./required-fields.js";

export interface DecodeOptions {
  /** Reject messages that miss a REQUIRED field (servers do; clients reading replies do not). Default true. */
  validateRequired?: boolean;
  /**
   * Most JSON values the message may hold (-32602 beyond). Default
   * `MAX_REQUEST_VALUES` when REQUIRED fields are validated (a request),
   * unlimited otherwise (a reply).
   */
  maxValues?: number;
}

function valueLimit(options: DecodeOptions): number {
  return options.maxValues ?? (options.validateRequired === false ? Number.POSITIVE_INFINITY : MAX_REQUEST_VALUES);
}

/** Builds the -32602 error with its BadRequest detail. */
export function invalidParams(violations: FieldViolation[], message = "Invalid parameters"): InvalidParamsError {
  return new InvalidParamsError(message, {
    errorDetails: [{ "@type": BAD_REQUEST_TYPE, fieldViolations: violations }],
  });
}

/** A JSON path from `root` to `field` (the shallowest one), for error reports. */
function pathTo(root: DescMessage, field: DescField): string {
  const queue: [DescMessage, string][] = [[root, ""]];
  const seen = new Set<DescMessage>();
  while (queue.length > 0) {
    const [message, prefix] = queue.shift() as [DescMessage, string];
    if (message === field.parent) return prefix + field.jsonName;
    if (seen.has(message)) continue;
    seen.add(message);
    for (const f of message.fields) {
      if (f.message && !f.message.typeName.startsWith("google.protobuf."))
        queue.push([f.message, `${prefix}${f.jsonName}.`]);
    }
  }
  return field.jsonName;
}

/** Decodes wire JSON into a message of `schema`, or throws InvalidParamsError. */
export function decodeMessage<S extends DescMessage>(
  schema: S,
  json: unknown,
  options: DecodeOptions = {},
): MessageShape<S> {
  const codec = a2aJsonCodecs.get(schema);
  if (codec) {
    const limit = valueLimit(options);
    setValueBudget(limit);
    try {
      return codec.read(json, options.validateRequired !== false, 0) as MessageShape<S>;
    } catch (error) {
      if (error === OVER_BUDGET) throw tooManyValues(limit);
      // Not a case the generated reader answers: the reflective path does, errors included.
    } finally {
      setValueBudget(Number.POSITIVE_INFINITY);
    }
  }
  return decodeMessageReflectively(schema, json, options);
}

/** @internal `decodeMessage` without the generated codecs (the reference they are tested against). */
export function decodeMessageReflectively<S extends DescMessage>(
  schema: S,
  json: unknown,
  options: DecodeOptions = {},
): MessageShape<S> {
  const limit = valueLimit(options);
  if (countJsonValues(json, limit) > limit) throw tooManyValues(limit);
  let message: MessageShape<S>;
  try {
    message = fromJson(schema, json as JsonValue, { ignoreUnknownFields: true });
  } catch (e) {
    const cause = (e as Error).cause;
    const field = isFieldError(cause) ? cause.field() : undefined;
    throw invalidParams([
      field?.kind === "field"
        ? { field: pathTo(schema, field), description: (cause as Error).message }
        : { field: "", description: (e as Error).message },
    ]);
  }
  checkDecoded(schema, message, options.validateRequired !== false, Number.POSITIVE_INFINITY);
  return message;
}

/**
 * Throws the -32602 InvalidParamsError when `message`, a request decoded
 * from binary, is not one the JSON path would have accepted: a REQUIRED
 * field missing (§5.7: binary has no notion of REQUIRED), a number that is
 * not finite, more than `maxValues` JSON values. Every binding that
 * decodes requests itself (gRPC) calls this on each one.
 */
export function checkRequiredFields<S extends DescMessage>(
  schema: S,
  message: MessageShape<S>,
  maxValues = MAX_REQUEST_VALUES,
): void {
  checkDecoded(schema, message, true, maxValues);
}

function checkDecoded<S extends DescMessage>(
  schema: S,
  message: MessageShape<S>,
  required: boolean,
  limit: number,
): void {
  setValueBudget(limit);
  try {
    if (a2aJsonCodecs.get(schema)?.valid(message)) return;
  } catch (error) {
    if (error === OVER_BUDGET) throw tooManyValues(limit);
    // Not a message the generated check reads: the reflective one decides.
  } finally {
    setValueBudget(Number.POSITIVE_INFINITY);
  }
  let values = 0;
  const violations = [
    ...(required ? requiredFieldViolations(schema, message) : []),
    ...nonFiniteViolations(schema, message, (n) => {
      values += n;
    }),
  ];
  if (values > limit) throw tooManyValues(limit);
  if (violations.length > 0) throw invalidParams(violations);
}

/**
 * A message as JSON text: `JSON.stringify(encodeMessage(schema, message))`,
 * written directly by the generated codec where there is one.
 */
export function encodeMessageText<S extends DescMessage>(schema: S, message: MessageShape<S>): string {
  const codec = a2aJsonCodecs.get(schema);
  if (codec) {
    try {
      return codec.write(message);
    } catch {
      // Not a case the generated writer answers: the reflective path does, errors included.
    }
  }
  return JSON.stringify(encodeMessage(schema, message));
}

/**
 * Encodes a message as wire JSON (proto3 JSON names, enum names, REQUIRED
 * fields always present, `null` for a number JSON cannot write).
 */
export function encodeMessage<S extends DescMessage>(schema: S, message: MessageShape<S>): JsonValue {
  let json: JsonValue;
  try {
    json = toJson(schema, message) as JsonValue;
  } catch (error) {
    // protobuf-es refuses NaN and Infinity in a Value; one such number must not cost the whole reply.
    const finite = withFiniteNumbers(schema, message);
    if (finite === message) throw error;
    json = toJson(schema, finite) as JsonValue;
  }
  if (typeof json === "object" && json !== null && !Array.isArray(json)) addRequiredZeros(schema, json);
  return json;
}
