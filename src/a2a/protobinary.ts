/**
 * Protobuf binary encoding of A2A messages: the generated writers
 * (`gen/a2a_binary.ts`, see src/a2a/binary-writer-runtime.ts) where one
 * exists and writes the message exactly, protobuf-es's `toBinary` otherwise.
 * The bytes are the same either way (test/a2a/binary-writers.test.ts); the
 * writers cost ~40 % of what `toBinary` does on a SendMessage reply.
 */
import { type DescMessage, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { a2aBinaryWriters } from "../../gen/a2a_binary.js";
import { ProtoWriter } from "./binary-writer-runtime.js";

/** One writer (and its buffer) for every message: encoding is synchronous, so calls never overlap. */
const writer = new ProtoWriter();

/**
 * The binary encoding of `message`, after `prefix` bytes left for the caller
 * (zero unless given; e.g. the five bytes of a gRPC envelope header).
 */
export function encodeBinary<S extends DescMessage>(schema: S, message: MessageShape<S>, prefix = 0): Uint8Array {
  const write = a2aBinaryWriters.get(schema);
  if (write) {
    try {
      writer.start(prefix);
      write(writer, message);
      return writer.finish();
    } catch {
      // A message the writer does not write exactly (or not at all): toBinary answers, or fails, as always.
    }
  }
  const bytes = toBinary(schema, message);
  if (prefix === 0) return bytes;
  const out = new Uint8Array(prefix + bytes.byteLength);
  out.set(bytes, prefix);
  return out;
}
