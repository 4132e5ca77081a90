/**
 * A2A messages to and from their JSON form: the proto3 JSON mapping of the
 * generated types (protobuf-es), as spec §5.5 requires. Readers accept the
 * proto field names too and ignore unknown fields (§5.7); writers emit every
 * REQUIRED field. A payload that does not decode is an InvalidParamsError
 * carrying a `google.rpc.BadRequest` with the offending fields.
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
import { BAD_REQUEST_TYPE } from "./error-wire.js";
import { InvalidParamsError } from "./errors.js";
import { addRequiredZeros, type FieldViolation, requiredFieldViolations } from "./required-fields.js";

export interface DecodeOptions {
  /** Reject messages that miss a REQUIRED field (servers do; clients reading replies do not). Default true. */
  validateRequired?: boolean;
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
  if (options.validateRequired !== false) {
    const violations = requiredFieldViolations(schema, message);
    if (violations.length > 0) throw invalidParams(violations);
  }
  return message;
}

/** Encodes a message as wire JSON (proto3 JSON names, enum names, REQUIRED fields always present). */
export function encodeMessage<S extends DescMessage>(schema: S, message: MessageShape<S>): JsonValue {
  const json = toJson(schema, message) as JsonValue;
  if (typeof json === "object" && json !== null && !Array.isArray(json)) addRequiredZeros(schema, json);
  return json;
}
