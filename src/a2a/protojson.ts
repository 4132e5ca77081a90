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
 * Three rules protobuf-es does not make: a message holding a number JSON
 * cannot write (NaN, ±Infinity; `1e400` parses to Infinity) does not decode
 * (-32602 naming where), and is written with `null` in its place; a request
 * holding more JSON values than `MAX_REQUEST_VALUES` is refused
 * (request-limits.ts); and a request naming a value its enum does not
 * declare is refused (enum-values.ts). The -32602 message names the first
 * violation; its `google.rpc.BadRequest` lists them all.
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
import { enumJsonViolations, enumValueViolations } from "./enum-values.js";
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

/**
 * Builds the -32602 error with its BadRequest detail. Its message is `what`
 * and the first violation (with its field, unless its description names
 * it), and how many more there are.
 */
export function invalidParams(violations: FieldViolation[], what = "Invalid parameters"): InvalidParamsError {
  return new InvalidParamsError(describeViolations(violations, what), {
    errorDetails: [{ "@type": BAD_REQUEST_TYPE, fieldViolations: violations }],
  });
}

function describeViolations(violations: readonly FieldViolation[], what: string): string {
  const first = violations[0];
  if (!first) return what;
  const named =
    first.field === "" || first.description.startsWith(first.field)
      ? first.description
      : `${first.field}: ${first.description}`;
  const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : "";
  return `${what}: ${named}${more}`;
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
  const request = options.validateRequired !== false;
  // protobuf-es drops an enum name it does not know: a request's are found before it can.
  const unknownEnums = request ? enumJsonViolations(schema, json) : [];
  let message: MessageShape<S>;
  try {
    message = fromJson(schema, json as JsonValue, { ignoreUnknownFields: true });
  } catch (e) {
    const cause = (e as Error).cause;
    const field = isFieldError(cause) ? cause.field() : undefined;
    throw invalidParams([
      ...unknownEnums,
      field?.kind === "field"
        ? { field: pathTo(schema, field), description: (cause as Error).message }
        : { field: "", description: (e as Error).message },
    ]);
  }
  checkDecoded(schema, message, request, Number.POSITIVE_INFINITY, unknownEnums);
  return message;
}

/**
 * Throws the -32602 InvalidParamsError when `message`, a request decoded
 * from binary, is not one the JSON path would have accepted: a REQUIRED
 * field missing (§5.7: binary has no notion of REQUIRED), an enum number its
 * enum does not declare, a number that is not finite, more than `maxValues`
 * JSON values. Every binding that decodes requests itself (gRPC) calls this
 * on each one.
 */
export function checkRequiredFields<S extends DescMessage>(
  schema: S,
  message: MessageShape<S>,
  maxValues = MAX_REQUEST_VALUES,
): void {
  checkDecoded(schema, message, true, maxValues);
}

/**
 * `request`: the REQUIRED and enum rules of requests apply (replies are read
 * leniently). `unknownEnums`: enum values the JSON named that the decoded
 * message no longer shows (a dropped name reads as the zero value).
 */
function checkDecoded<S extends DescMessage>(
  schema: S,
  message: MessageShape<S>,
  request: boolean,
  limit: number,
  unknownEnums: readonly FieldViolation[] = [],
): void {
  setValueBudget(limit);
  try {
    if (a2aJsonCodecs.get(schema)?.valid(message) && unknownEnums.length === 0) return;
  } catch (error) {
    if (error === OVER_BUDGET) throw tooManyValues(limit);
    // Not a message the generated check reads: the reflective one decides.
  } finally {
    setValueBudget(Number.POSITIVE_INFINITY);
  }
  let values = 0;
  const nonFinite = nonFiniteViolations(schema, message, (n) => {
    values += n;
  });
  if (values > limit) throw tooManyValues(limit);
  const violations = request
    ? withEnumViolations(requiredFieldViolations(schema, message), [
        ...unknownEnums,
        ...enumValueViolations(schema, message),
      ])
    : [];
  violations.push(...nonFinite);
  if (violations.length > 0) throw invalidParams(violations);
}

/**
 * The REQUIRED violations with the enum ones merged in, one per field, in a
 * fixed order whichever way the message came: a REQUIRED enum whose name was
 * unknown (so it reads as unset) is reported as the unknown value it was.
 */
function withEnumViolations(required: FieldViolation[], enums: readonly FieldViolation[]): FieldViolation[] {
  const byField = new Map<string, FieldViolation>();
  for (const v of enums) if (!byField.has(v.field)) byField.set(v.field, v);
  const out = required.map((v) => {
    const unknown = byField.get(v.field);
    if (!unknown) return v;
    byField.delete(v.field);
    return unknown;
  });
  out.push(...byField.values());
  return out;
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
