/**
 * protoc-gen-a2a-binary: specialised protobuf binary writers for the
 * messages of a proto file (`<file>_binary.ts`), so the gRPC binding does not
 * walk descriptors per field to encode a reply.
 *
 * For each message it emits a writer with exactly the semantics of
 * protobuf-es's `toBinary`: fields in field-number order, implicit zero
 * values omitted, explicit-presence fields written when set, oneof members
 * at their own numbers, map entries with key and value always written, list
 * items in order, unknown fields last. The wire primitives and the
 * well-known types (Timestamp, Struct, Value) are the runtime's
 * (src/a2a/binary-writer-runtime.ts); a value of a type the writer does not
 * expect makes it bail out, and `toBinary` runs instead. A message with a
 * field kind this plugin does not know (floats, packed lists, non-string map
 * keys, lists of Struct...) gets no writer at all and always takes
 * `toBinary`, so a spec bump can never produce a wrong writer, only a slower one.
 */
import { type DescField, type DescFile, type DescMessage, ScalarType } from "@bufbuild/protobuf";
import {
  createEcmaScriptPlugin,
  type GeneratedFile,
  type Printable,
  runNodeJs,
  type Schema,
} from "@bufbuild/protoplugin";
import {
  allMessages,
  baseName,
  fileTableName,
  fullySupported,
  isImplicit,
  STRUCT,
  TIMESTAMP,
  VALUE,
} from "./plugin-messages.js";

const RUNTIME = "../src/a2a/binary-writer-runtime.js";

const WIRE_VARINT = 0;
const WIRE_DELIMITED = 2;

/** Scalars the runtime writes, with their wire type. */
const SCALARS = new Map<ScalarType, { readonly method: string; readonly wire: number }>([
  [ScalarType.STRING, { method: "string", wire: WIRE_DELIMITED }],
  [ScalarType.BYTES, { method: "bytes", wire: WIRE_DELIMITED }],
  [ScalarType.BOOL, { method: "bool", wire: WIRE_VARINT }],
  [ScalarType.INT32, { method: "int32", wire: WIRE_VARINT }],
  [ScalarType.INT64, { method: "int64", wire: WIRE_VARINT }],
]);

/** The message types of the file that get a writer: proto3, every field of a kind we write exactly. */
function supportedMessages(file: DescFile): Set<DescMessage> {
  return fullySupported(allMessages(file), fieldSupported);
}

function scalarSupported(field: DescField & { longAsString: boolean }, scalar: ScalarType): boolean {
  // A 64-bit field held as a string (jstype = JS_STRING) is left to toBinary.
  return SCALARS.has(scalar) && !(scalar === ScalarType.INT64 && field.longAsString);
}

function fieldSupported(field: DescField, supported: ReadonlySet<DescMessage>): boolean {
  if ((field.fieldKind === "scalar" || field.fieldKind === "enum") && field.getDefaultValue() !== undefined)
    return false;
  switch (field.fieldKind) {
    case "scalar":
      return scalarSupported(field, field.scalar);
    case "enum":
      return field.enum.open;
    case "message": {
      const name = field.message.typeName;
      if (name === VALUE) return field.oneof !== undefined;
      if (name === STRUCT || name === TIMESTAMP) return field.oneof === undefined;
      return supported.has(field.message) && !field.delimitedEncoding;
    }
    case "list":
      // Packed numeric lists and lists of well-known types are left to toBinary.
      return field.listKind === "message"
        ? supported.has(field.message) && !field.message.typeName.startsWith("google.protobuf.")
        : field.listKind === "scalar" && field.scalar === ScalarType.STRING;
    case "map":
      if (field.mapKey !== ScalarType.STRING) return false;
      return field.mapKind === "message"
        ? supported.has(field.message) && !field.message.typeName.startsWith("google.protobuf.")
        : field.mapKind === "scalar" && field.scalar === ScalarType.STRING;
  }
}

const tag = (number: number, wire: number) => ((number << 3) | wire) >>> 0;

type Runtime = Record<
  "ProtoWriter" | "writeUnknown" | "writeTimestamp" | "writeStruct" | "writeValue" | "bail",
  Printable
>;

/** One line of generated code: text and imported symbols. */
type Line = Printable[];

const indent = (lines: Line[]): Line[] => lines.map((l) => ["  ", ...l]);

/** Statements writing one value `v` of `field` (its tag included). */
function writeOne(field: DescField, rt: Runtime, v: string): Line[] {
  if (field.fieldKind === "scalar" || (field.fieldKind === "list" && field.listKind === "scalar")) {
    const { method, wire } = SCALARS.get(field.scalar as ScalarType) as { method: string; wire: number };
    return [[`w.uint32(${tag(field.number, wire)});`], [`w.${method}(${v});`]];
  }
  if (field.fieldKind === "enum") return [[`w.uint32(${tag(field.number, WIRE_VARINT)});`], [`w.int32(${v});`]];
  const message = (field as DescField & { message: DescMessage }).message;
  const body: Line =
    message.typeName === TIMESTAMP
      ? [rt.writeTimestamp, `(w, ${v});`]
      : message.typeName === STRUCT
        ? [rt.writeStruct, `(w, ${v});`]
        : message.typeName === VALUE
          ? [rt.writeValue, `(w, ${v});`]
          : [`write${baseName(message)}(w, ${v});`];
  return [[`w.uint32(${tag(field.number, WIRE_DELIMITED)});`], ["w.fork();"], body, ["w.join();"]];
}

/** Statements writing `field` of message `m` when protobuf-es would. */
function writeField(field: DescField, rt: Runtime): Line[] {
  const name = field.localName;
  if (field.oneof) {
    return [
      [`if (m.${field.oneof.localName}.case === ${JSON.stringify(name)}) {`],
      ...indent(writeOne(field, rt, `m.${field.oneof.localName}.value`)),
      ["}"],
    ];
  }
  switch (field.fieldKind) {
    case "list":
      return [[`for (const x of m.${name}) {`], ...indent(writeOne(field, rt, "x")), ["}"]];
    case "map": {
      const value: Line[] =
        field.mapKind === "message"
          ? [
              [`w.uint32(${tag(2, WIRE_DELIMITED)});`],
              ["w.fork();"],
              [`write${baseName(field.message)}(w, record[k]!);`],
              ["w.join();"],
            ]
          : [[`w.uint32(${tag(2, WIRE_DELIMITED)});`], ["w.string(record[k]);"]];
      return [
        ["{"],
        ...indent([
          [`const record = m.${name};`],
          ["for (const k of Object.keys(record)) {"],
          ...indent([
            [`w.uint32(${tag(field.number, WIRE_DELIMITED)});`],
            ["w.fork();"],
            [`w.uint32(${tag(1, WIRE_DELIMITED)});`],
            ["w.string(k);"],
            ...value,
            ["w.join();"],
          ]),
          ["}"],
        ]),
        ["}"],
      ];
    }
    default: {
      // Implicit presence: written unless the zero value (protobuf-es's loose `!= 0` for numbers).
      let set = `m.${name} !== undefined`;
      if (isImplicit(field)) {
        if (field.fieldKind === "enum") set = `m.${name} !== ${field.enum.values[0]?.number ?? 0}`;
        else if (field.fieldKind === "scalar") {
          switch (field.scalar) {
            case ScalarType.STRING:
              set = `m.${name} !== ""`;
              break;
            case ScalarType.BOOL:
              set = `m.${name} !== false`;
              break;
            case ScalarType.BYTES:
              set = `!(m.${name} instanceof Uint8Array) || m.${name}.byteLength > 0`;
              break;
            default:
              set = `m.${name} != 0`;
          }
        }
      }
      return [[`if (${set}) {`], ...indent(writeOne(field, rt, `m.${name}`)), ["}"]];
    }
  }
}

function printWriter(f: GeneratedFile, rt: Runtime, message: DescMessage): void {
  const name = baseName(message);
  const type = f.importShape(message);
  f.print("function write", name, "(w: ", rt.ProtoWriter, ", m: ", type, "): void {");
  // protobuf-es refuses a message of another type; the fallback says so in its words.
  f.print(`  if (m.$typeName !== ${JSON.stringify(message.typeName)}) `, rt.bail, "();");
  const fields = [...message.fields].sort((a, b) => a.number - b.number);
  for (const field of fields) for (const line of writeField(field, rt)) f.print("  ", ...line);
  f.print("  const unknown = (m as { $unknown?: unknown }).$unknown;");
  f.print("  if (unknown !== undefined) ", rt.writeUnknown, "(w, unknown);");
  f.print("}");
  f.print();
}

function generateTs(schema: Schema): void {
  // The files that declare a service: their messages are what the gRPC binding writes.
  for (const file of schema.files) {
    if (file.services.length === 0) continue;
    const supported = supportedMessages(file);
    if (supported.size === 0) continue;
    const f = schema.generateFile(`${file.name}_binary.ts`);
    f.preamble(file);
    const rt = Object.fromEntries(
      ["writeUnknown", "writeTimestamp", "writeStruct", "writeValue", "bail"].map((name) => [
        name,
        f.import(name, RUNTIME),
      ]),
    ) as Runtime;
    rt.ProtoWriter = f.import("ProtoWriter", RUNTIME, true);
    const ordered = allMessages(file).filter((m) => supported.has(m));
    for (const message of ordered) printWriter(f, rt, message);
    const writer = f.import("BinaryMessageWriter", RUNTIME, true);
    const descMessage = f.import("DescMessage", "@bufbuild/protobuf", true);
    f.print(
      f.jsDoc(
        `Binary writers of the messages of ${file.proto.name} that have one (see tools/protoc-gen-a2a-binary.ts): ` +
          "a fast path that bails out to protobuf-es's toBinary on anything it does not write exactly.",
      ),
    );
    f.print(
      f.export("const", fileTableName(file, "BinaryWriters")),
      ": ReadonlyMap<",
      descMessage,
      ", ",
      writer,
      "> = new Map<",
      descMessage,
      ", ",
      writer,
      ">([",
    );
    for (const message of ordered) {
      f.print("  [", f.importSchema(message), `, write${baseName(message)} as `, writer, "],");
    }
    f.print("]);");
  }
}

runNodeJs(
  createEcmaScriptPlugin({
    name: "protoc-gen-a2a-binary",
    version: "v1",
    generateTs,
  }),
);
