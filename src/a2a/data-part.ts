/**
 * The structured-data part (spec §4.1.6). Apart from the other parts
 * (parts.ts): its JSON value becomes a `google.protobuf.Value` through
 * protobuf-es's reflection, which a bundle of the other parts leaves out.
 */
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import type { Part } from "../../gen/a2a_pb.js";
import { part } from "./part-value.js";
import type { PartOptions } from "./parts.js";

/** A structured-data part holding any JSON value (object, array, string, number, boolean or null). */
export function dataPart(data: JsonValue, options: PartOptions = {}): Part {
  return part({ case: "data", value: fromJson(ValueSchema, data) }, options);
}
