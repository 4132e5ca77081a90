/**
 * protoc-gen-a2a-json: specialised ProtoJSON codecs for the messages of a
 * proto file (`<file>_json.ts`), so the hot paths of every binding and of the
 * client do not walk descriptors per field.
 *
 * For each message it emits a writer (message → JSON text, without building
 * a JSON object first) and a reader (JSON value → message, REQUIRED fields
 * checked on request) with exactly the semantics of protobuf-es's
 * `toJson`/`fromJson` and of src/a2a/required-fields.ts: field order by
 * number, implicit zero values omitted, REQUIRED zeros appended, JSON and
 * proto names both read, unknown keys ignored. What a reader or writer does
 * not handle exactly (string-encoded numbers, unknown enum names, in a
 * request an enum number its enum does not declare, a key set twice, a
 * missing REQUIRED field, any type it does not expect) makes it bail out,
 * and src/a2a/protojson.ts runs the reflective path instead.
 * Readers spend the runtime's value budget (two units per member, one per
 * list item) and bail on a number that is not finite; writers write such a number
 * as `null`. A
 * message with a field kind this plugin does not know (int64, floats, enum
 * lists, non-string map keys, Value outside a oneof...) gets no codec at all
 * and always takes the reflective path, so a spec bump can never produce a
 * wrong codec, only a slower one.
 */
import {
  type DescEnum,
  type DescExtension,
  type DescField,
  type DescFile,
  type DescMessage,
  type DescOneof,
  getOption,
  ScalarType,
} from "@bufbuild/protobuf";
import { Edition } from "@bufbuild/protobuf/wkt";
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

const RUNTIME = "../src/a2a/json-codec-runtime.js";

type Runtime = Record<
  | "bail"
  | "putString"
  | "endWrite"
  | "hasOwn"
  | "readString"
  | "readBool"
  | "readInt32"
  | "readBytes"
  | "putBytes"
  | "readObject"
  | "readMapKey"
  | "putTimestamp"
  | "readTimestamp"
  | "putStruct"
  | "readStruct"
  | "putValue"
  | "readValue"
  | "spend"
  | "validStruct"
  | "validValue"
  | "MAX_DEPTH",
  Printable
>;

/** google.api.FieldBehavior.REQUIRED */
const REQUIRED = 2;

/** The `google.api.field_behavior` extension, found among the inputs (not in gen/, which this run rewrites). */
let fieldBehavior: DescExtension | undefined;

function isRequired(field: DescField): boolean {
  if (!fieldBehavior) return false;
  return (getOption(field, fieldBehavior) as number[]).includes(REQUIRED);
}

/**
 * The message types of the file that get a codec (every field of a kind we
 * handle, every nested type too), and why each other one gets none.
 */
function supportedMessages(file: DescFile): { supported: Set<DescMessage>; without: Map<DescMessage, string> } {
  const messages = allMessages(file);
  // A cycle among the file's own types would change how REQUIRED zeros nest (see required-fields.ts): leave it out.
  const acyclic = messages.filter((m) => !reaches(m, m, new Set()));
  const supported = fullySupported(acyclic, fieldSupported);
  const without = new Map<DescMessage, string>();
  for (const m of messages) {
    if (supported.has(m)) continue;
    const field = m.fields.find((f) => !fieldSupported(f, supported));
    without.set(
      m,
      m.file.edition !== Edition.EDITION_PROTO3
        ? "not proto3"
        : !acyclic.includes(m)
          ? "its type is recursive"
          : field
            ? `field ${field.name} (${describeField(field)})`
            : "a type it holds has no codec",
    );
  }
  return { supported, without };
}

/** A field's kind as a proto reader would name it: `int64`, `repeated Foo`, `map<int32, string>`. */
function describeField(field: DescField): string {
  const scalar = (t: ScalarType) => ScalarType[t].toLowerCase();
  switch (field.fieldKind) {
    case "scalar":
      return scalar(field.scalar);
    case "enum":
      return field.enum.typeName;
    case "message":
      return field.message.typeName;
    case "list":
      return `repeated ${field.listKind === "scalar" ? scalar(field.scalar) : field.listKind === "enum" ? field.enum.typeName : field.message.typeName}`;
    case "map": {
      const value =
        field.mapKind === "scalar"
          ? scalar(field.scalar)
          : field.mapKind === "enum"
            ? field.enum.typeName
            : field.message.typeName;
      return `map<${scalar(field.mapKey)}, ${value}>`;
    }
  }
}

/**
 * Says on stderr, loudly, which messages take the slow reflective path: after
 * a spec bump a new field kind silently costing the hot messages their codecs
 * is a regression to fix here (test/a2a/json-codecs.test.ts fails on it too).
 */
function warnWithout(file: DescFile, without: Map<DescMessage, string>): void {
  if (without.size === 0) return;
  const lines = [...without].map(([m, why]) => `  ${m.typeName}: ${why}`);
  process.stderr.write(
    `protoc-gen-a2a-json: WARNING: ${without.size} message(s) of ${file.name}.proto get no fast JSON codec ` +
      "and take the slower reflective path:\n" +
      `${lines.join("\n")}\n` +
      "Teach tools/protoc-gen-a2a-json.ts the field kind (fieldSupported, putItem, readItem) to get them back.\n",
  );
}

function messageOf(field: DescField): DescMessage | undefined {
  if (field.fieldKind === "message") return field.message;
  if (field.fieldKind === "list" && field.listKind === "message") return field.message;
  if (field.fieldKind === "map" && field.mapKind === "message") return field.message;
  return undefined;
}

function reaches(from: DescMessage, target: DescMessage, seen: Set<DescMessage>): boolean {
  for (const field of from.fields) {
    const next = messageOf(field);
    if (!next || next.typeName.startsWith("google.protobuf.")) continue;
    if (next === target) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    if (reaches(next, target, seen)) return true;
  }
  return false;
}

const SCALARS = new Set([ScalarType.STRING, ScalarType.BOOL, ScalarType.INT32, ScalarType.BYTES]);

function fieldSupported(field: DescField, supported: ReadonlySet<DescMessage>): boolean {
  // A default value, or a JSON name an `in` check would find on Object.prototype, is left to the reflective path.
  if (field.jsonName in Object.prototype) return false;
  if ((field.fieldKind === "scalar" || field.fieldKind === "enum") && field.getDefaultValue() !== undefined)
    return false;
  const messageOk = (m: DescMessage) => supported.has(m);
  switch (field.fieldKind) {
    case "scalar":
      return SCALARS.has(field.scalar);
    case "enum":
      // Open enums only: a closed one refuses unknown numbers, which the readers do not check.
      return field.enum.open && field.enum.typeName !== "google.protobuf.NullValue";
    case "message": {
      const name = field.message.typeName;
      if (name === VALUE) return field.oneof !== undefined;
      if (name === STRUCT) return field.oneof === undefined;
      if (name === TIMESTAMP) return true;
      return messageOk(field.message);
    }
    case "list":
      return field.listKind === "message"
        ? messageOk(field.message)
        : field.listKind === "scalar" && field.scalar === ScalarType.STRING;
    case "map":
      if (field.mapKey !== ScalarType.STRING) return false;
      return field.mapKind === "message"
        ? messageOk(field.message)
        : field.mapKind === "scalar" && field.scalar === ScalarType.STRING;
  }
}

/**
 * What a writer appends before one value: the text `first` when the JS
 * condition `cond` holds (or always, when there is no condition), else `next`.
 * A field's key comes with a comma unless nothing was written before it in
 * its object (`n`: the length of the text up to the object's "{").
 */
interface Before {
  readonly cond?: string;
  readonly first: string;
  readonly next: string;
}

const fieldBefore = (field: DescField): Before => {
  const key = `${JSON.stringify(field.jsonName)}:`;
  return { cond: "s.length === n", first: key, next: `,${key}` };
};

const itemBefore: Before = { cond: "i === 0", first: "", next: "," };

/** Nothing before the value (a map entry's value: its key, written just before, ends with the ":"). */
const nothingBefore: Before = { first: "", next: "" };

/** The JS expression of the text so far, `s`, with what goes before a value and `more` (its opening quote or brace). */
function withBefore(before: Before, more = ""): string {
  const first = JSON.stringify(before.first + more);
  if (before.cond === undefined) return first === '""' ? "s" : `s + ${first}`;
  return `s + (${before.cond} ? ${first} : ${JSON.stringify(before.next + more)})`;
}

function enumName(e: DescEnum): string {
  return e.typeName.slice(e.file.proto.package.length + 1).replace(/\./g, "_");
}

function enumValueJsonName(value: DescEnum["values"][number]): string {
  return (value as { jsonName?: string }).jsonName ?? value.name;
}

/** What one value of a field is: the field itself when singular, an item of a list, a value of a map. */
type Item =
  | { readonly kind: "scalar"; readonly scalar: ScalarType }
  | { readonly kind: "enum"; readonly enum: DescEnum }
  | { readonly kind: "message"; readonly message: DescMessage };

function itemOf(field: DescField): Item {
  switch (field.fieldKind) {
    case "scalar":
      return { kind: "scalar", scalar: field.scalar };
    case "enum":
      return { kind: "enum", enum: field.enum };
    case "message":
      return { kind: "message", message: field.message };
    case "list":
      if (field.listKind === "scalar") return { kind: "scalar", scalar: field.scalar };
      if (field.listKind === "enum") return { kind: "enum", enum: field.enum };
      return { kind: "message", message: field.message };
    case "map":
      if (field.mapKind === "scalar") return { kind: "scalar", scalar: field.scalar };
      if (field.mapKind === "enum") return { kind: "enum", enum: field.enum };
      return { kind: "message", message: field.message };
  }
}

// ------------------------------------------------------------------ writers

/**
 * The statement appending to the text so far, `s`, what goes before one
 * value `x` (type-checked already) of the field and the value itself, as
 * JSON. Each piece is appended to `s` once, in order: the text is one chain
 * of pieces (see printWriter).
 */
function putItem(rt: Runtime, field: DescField, x: string, before: Before): Printable[] {
  const item = itemOf(field);
  if (item.kind === "enum") return [`s = ${withBefore(before)} + write${enumName(item.enum)}(${x});`];
  if (item.kind === "message") {
    const name = item.message.typeName;
    if (name === TIMESTAMP) return ["s = ", rt.putTimestamp, `(${withBefore(before, '"')}, ${x});`];
    if (name === STRUCT) return ["s = ", rt.putStruct, `(${withBefore(before, "{")}, ${x});`];
    if (name === VALUE) return ["s = ", rt.putValue, `(${withBefore(before)}, ${x});`];
    return [`s = put${baseName(item.message)}(${withBefore(before, "{")}, ${x});`];
  }
  switch (item.scalar) {
    case ScalarType.STRING:
      return ["s = ", rt.putString, `(${withBefore(before, '"')}, ${x});`];
    case ScalarType.BOOL:
      return [`s = ${withBefore(before)} + (${x} ? "true" : "false");`];
    case ScalarType.INT32:
      return [`s = ${withBefore(before)} + JSON.stringify(${x});`];
    default:
      return ["s = ", rt.putBytes, `(${withBefore(before, '"')}, ${x});`];
  }
}

/** A statement that bails unless `x` has the JS type the field's toJson encoder accepts. */
function typeCheck(rt: Runtime, field: DescField, x: string): Printable[] {
  const item = itemOf(field);
  if (item.kind === "enum" || (item.kind === "scalar" && item.scalar === ScalarType.INT32))
    return [`if (typeof ${x} !== "number") `, rt.bail, "();"];
  if (item.kind === "scalar" && item.scalar === ScalarType.STRING)
    return [`if (typeof ${x} !== "string") `, rt.bail, "();"];
  if (item.kind === "scalar" && item.scalar === ScalarType.BOOL)
    return [`if (typeof ${x} !== "boolean") `, rt.bail, "();"];
  if (item.kind === "scalar" && item.scalar === ScalarType.BYTES)
    return [`if (!(${x} instanceof Uint8Array)) `, rt.bail, "();"];
  // Messages: their writers check $typeName; a missing value would be written as an empty message.
  return [`if (${x} === undefined) `, rt.bail, "();"];
}

/** The condition under which toJson writes an implicit-presence scalar or enum (not its zero value). */
function implicitWritten(field: DescField, x: string): string {
  if (field.fieldKind === "enum") return `${x} !== ${field.enum.values[0]?.number ?? 0}`;
  switch (field.fieldKind === "scalar" ? field.scalar : undefined) {
    case ScalarType.STRING:
      return `${x} !== ""`;
    case ScalarType.BOOL:
      return `${x} !== false`;
    case ScalarType.BYTES:
      return `(!(${x} instanceof Uint8Array) || ${x}.byteLength > 0)`;
    default:
      return `${x} != 0`;
  }
}

/** The JSON text of a REQUIRED field's zero value, as required-fields.ts adds it. */
function zeroJson(field: DescField): string | undefined {
  switch (field.fieldKind) {
    case "list":
      return "[]";
    case "map":
      return "{}";
    case "enum":
      return isImplicit(field) ? JSON.stringify(field.enum.values.find((v) => v.number === 0)?.name ?? 0) : undefined;
    case "scalar":
      if (!isImplicit(field)) return undefined;
      return field.scalar === ScalarType.STRING || field.scalar === ScalarType.BYTES
        ? '""'
        : field.scalar === ScalarType.BOOL
          ? "false"
          : "0";
    default:
      return undefined;
  }
}

/** The condition under which the writer did not write the field (so a REQUIRED zero is appended). */
function notWritten(field: DescField, x: string): string {
  if (field.fieldKind === "list") return `${x}.length == 0`;
  if (field.fieldKind === "map") return `Object.keys(${x}).length == 0`;
  return `!(${implicitWritten(field, x)})`;
}

function printWriteField(f: GeneratedFile, rt: Runtime, field: DescField): void {
  const local = `m.${field.localName}`;
  if (field.oneof) {
    const oneof = `m.${field.oneof.localName}`;
    f.print(`  if (${oneof}.case === ${JSON.stringify(field.localName)}) {`);
    f.print("    const x = ", oneof, ".value;");
    f.print("    ", ...typeCheck(rt, field, "x"));
    f.print("    ", ...putItem(rt, field, "x", fieldBefore(field)));
    f.print("  }");
    return;
  }
  if (field.fieldKind === "list") {
    f.print("  {");
    f.print("    const l = ", local, ";");
    f.print("    if (l.length != 0) {");
    f.print(`      s = ${withBefore(fieldBefore(field), "[")};`);
    f.print("      for (let i = 0; i < l.length; i++) {");
    f.print("        const x = l[i];");
    f.print("        ", ...typeCheck(rt, field, "x"));
    f.print("        ", ...putItem(rt, field, "x", itemBefore));
    f.print("      }");
    f.print(`      s += "]";`);
    f.print("    }");
    f.print("  }");
    return;
  }
  if (field.fieldKind === "map") {
    f.print("  {");
    f.print("    const r = ", local, " as Record<string, unknown>;");
    f.print("    const ks = Object.keys(r);");
    f.print("    if (ks.length != 0) {");
    f.print(`      s = ${withBefore(fieldBefore(field), "{")};`);
    f.print("      for (let i = 0; i < ks.length; i++) {");
    f.print("        const k = ks[i] as string;");
    f.print("        const x = r[k] as ", mapValueType(f, field), ";");
    f.print("        ", ...typeCheck(rt, field, "x"));
    f.print("        s = ", rt.putString, `(${withBefore(itemBefore, '"')}, k, '":');`);
    f.print("        ", ...putItem(rt, field, "x", nothingBefore));
    f.print("      }");
    f.print(`      s += "}";`);
    f.print("    }");
    f.print("  }");
    return;
  }
  f.print("  {");
  f.print("    const x = ", local, ";");
  if (field.fieldKind === "message" || !isImplicit(field)) {
    f.print("    if (x !== undefined && ", rt.hasOwn, `(m, ${JSON.stringify(field.localName)})) {`);
  } else {
    f.print(`    if (${implicitWritten(field, "x")}) {`);
  }
  if (field.fieldKind !== "message") f.print("      ", ...typeCheck(rt, field, "x"));
  f.print("      ", ...putItem(rt, field, "x", fieldBefore(field)));
  f.print("    }");
  f.print("  }");
}

function mapValueType(f: GeneratedFile, field: DescField): Printable {
  if (field.fieldKind !== "map") throw new Error(`${field}: not a map`);
  return field.mapKind === "message" ? f.importShape(field.message) : "string";
}

/**
 * `write<Name>(m)`, the message as JSON text, and `put<Name>(s, m)`: the
 * text `s` (ending with the message's "{") followed by the rest of the
 * message. Every piece is appended once to the one growing text, never to a
 * text of its own first: the result is a single chain of pieces, which is
 * cheaper to build, and to flatten when it is sent, than a tree of them.
 */
function printWriter(f: GeneratedFile, rt: Runtime, message: DescMessage): void {
  const shape = f.importShape(message);
  const name = baseName(message);
  f.print(`export function write${name}(m: `, shape, "): string {");
  f.print(`  const s = put${name}("{", m);`);
  f.print("  ", rt.endWrite, "();");
  f.print("  return s;");
  f.print("}");
  f.print();
  f.print(`function put${name}(s: string, m: `, shape, "): string {");
  f.print(`  if (m.$typeName !== ${JSON.stringify(message.typeName)}) `, rt.bail, "();");
  f.print("  const n = s.length;");
  for (const field of [...message.fields].sort((a, b) => a.number - b.number)) printWriteField(f, rt, field);
  for (const field of message.fields) {
    const zero = zeroJson(field);
    if (!isRequired(field) || zero === undefined) continue;
    f.print(`  if (${notWritten(field, `m.${field.localName}`)}) s = ${withBefore(fieldBefore(field), zero)};`);
  }
  f.print(`  return s + "}";`);
  f.print("}");
  f.print();
}

// ------------------------------------------------------------------ readers

/** The expression reading one non-null JSON value `x` of the field (a singular value, an item, a map value). */
function readItem(rt: Runtime, field: DescField, x: string): Printable[] {
  const item = itemOf(field);
  if (item.kind === "enum") return [`read${enumName(item.enum)}(${x}, v)`];
  if (item.kind === "message") {
    const name = item.message.typeName;
    if (name === TIMESTAMP) return [rt.readTimestamp, `(${x})`];
    if (name === STRUCT) return [rt.readStruct, `(${x}, d + 1)`];
    if (name === VALUE) return [rt.readValue, `(${x}, d + 1)`];
    return [`read${baseName(item.message)}(${x}, v, d + 1)`];
  }
  switch (item.scalar) {
    case ScalarType.STRING:
      return [rt.readString, `(${x})`];
    case ScalarType.BOOL:
      return [rt.readBool, `(${x})`];
    case ScalarType.INT32:
      return [rt.readInt32, `(${x})`];
    default:
      return [rt.readBytes, `(${x})`];
  }
}

/** The literal protobuf-es `create()` makes for the message: implicit zeros, empty lists and maps, unset oneofs. */
function zeroMessage(message: DescMessage): string {
  const props = [`$typeName: ${JSON.stringify(message.typeName)}`];
  for (const member of message.members) {
    if (member.kind === "oneof") {
      props.push(`${member.localName}: { case: undefined }`);
      continue;
    }
    switch (member.fieldKind) {
      case "list":
        props.push(`${member.localName}: []`);
        break;
      case "map":
        props.push(`${member.localName}: {}`);
        break;
      case "message":
        break;
      default:
        if (!isImplicit(member)) break;
        props.push(
          `${member.localName}: ${member.fieldKind === "scalar" && member.scalar === ScalarType.BYTES ? "new Uint8Array(0)" : JSON.stringify(zeroValue(member))}`,
        );
    }
  }
  return `{ ${props.join(", ")} }`;
}

function zeroValue(field: DescField): unknown {
  if (field.fieldKind === "enum") return field.enum.values[0]?.number ?? 0;
  if (field.fieldKind !== "scalar") return undefined;
  switch (field.scalar) {
    case ScalarType.STRING:
      return "";
    case ScalarType.BOOL:
      return false;
    default:
      return 0;
  }
}

/** Whether a REQUIRED field is missing, as required-fields.ts decides it. */
function missing(field: DescField, x: string): string {
  if (field.oneof) return `m.${field.oneof.localName}.case !== ${JSON.stringify(field.localName)}`;
  if (field.fieldKind === "list") return `${x}.length === 0`;
  if (field.fieldKind === "map") return `Object.keys(${x}).length === 0`;
  if (field.fieldKind === "message" || !isImplicit(field)) return `${x} === undefined`;
  if (field.fieldKind === "scalar" && field.scalar === ScalarType.BYTES) return `${x}.byteLength === 0`;
  return `${x} === ${JSON.stringify(zeroValue(field))}`;
}

function printReadCase(f: GeneratedFile, rt: Runtime, field: DescField, bit: number, oneofs: Map<DescOneof, string>) {
  const labels = [...new Set([field.jsonName, field.name])].map((n) => `case ${JSON.stringify(n)}:`).join(" ");
  const local = `m.${field.localName}`;
  f.print("      ", labels, " {");
  f.print(`        if (seen & ${bit}) `, rt.bail, "();");
  f.print(`        seen |= ${bit};`);
  if (field.oneof) {
    const flag = oneofs.get(field.oneof) as string;
    // A null scalar member is skipped. A null message member still counts as setting the oneof, and
    // resets it (it cannot hold this member yet); a null Value is the JSON null value.
    if (field.fieldKind === "scalar") f.print("        if (x === null) break;");
    f.print(`        if (${flag}) `, rt.bail, "();");
    f.print(`        ${flag} = true;`);
    if (field.fieldKind === "message" && field.message.typeName !== VALUE) f.print("        if (x === null) break;");
    f.print(
      `        m.${field.oneof.localName} = { case: ${JSON.stringify(field.localName)}, value: `,
      ...readItem(rt, field, "x"),
      " };",
    );
    f.print("        break;");
    f.print("      }");
    return;
  }
  f.print("        if (x === null) break;");
  if (field.fieldKind === "list") {
    f.print("        if (!Array.isArray(x)) ", rt.bail, "();");
    f.print("        ", rt.spend, "(x.length);");
    // At its size: a list grown by push from [] gets room for 17 items, and a decoded message is often kept (a task's history).
    f.print("        const l: typeof ", local, " = new Array(x.length);");
    f.print("        for (let n = 0; n < x.length; n++) {");
    f.print("          const e = x[n];");
    f.print("          if (e === null) ", rt.bail, "();");
    f.print("          l[n] = ", ...readItem(rt, field, "e"), ";");
    f.print("        }");
    f.print("        ", local, " = l;");
  } else if (field.fieldKind === "map") {
    f.print("        const o = ", rt.readObject, "(x);");
    f.print("        const r = ", local, " as Record<string, unknown>;");
    f.print("        const ks = Object.keys(o);");
    f.print("        ", rt.spend, "(2 * ks.length);");
    f.print("        for (let n = 0; n < ks.length; n++) {");
    f.print("          const k = ", rt.readMapKey, "(ks[n] as string);");
    f.print("          const e = o[k];");
    f.print("          if (e === null) ", rt.bail, "();");
    f.print("          r[k] = ", ...readItem(rt, field, "e"), ";");
    f.print("        }");
  } else {
    f.print("        ", local, " = ", ...readItem(rt, field, "x"), ";");
  }
  f.print("        break;");
  f.print("      }");
}

function printReader(f: GeneratedFile, rt: Runtime, message: DescMessage): void {
  const shape = f.importShape(message);
  if (message.fields.length > 30) throw new Error(`${message}: more than 30 fields; extend the seen-bits`);
  f.print(`export function read${baseName(message)}(j: unknown, v: boolean, d: number): `, shape, " {");
  f.print('  if (typeof j !== "object" || j === null || Array.isArray(j) || d > ', rt.MAX_DEPTH, ") ", rt.bail, "();");
  f.print("  const m = ", zeroMessage(message), " as ", shape, ";");
  const oneofs = new Map(message.oneofs.map((o, i) => [o, `oneof${i}`] as const));
  for (const flag of oneofs.values()) f.print(`  let ${flag} = false;`);
  f.print("  let seen = 0;");
  f.print("  const o = j as Record<string, unknown>;");
  f.print("  const ks = Object.keys(o);");
  f.print("  ", rt.spend, "(2 * ks.length);");
  f.print("  for (let i = 0; i < ks.length; i++) {");
  f.print("    const x = o[ks[i] as string];");
  f.print("    switch (ks[i]) {");
  for (const [i, field] of message.fields.entries()) printReadCase(f, rt, field, 1 << i, oneofs);
  f.print("    }");
  f.print("  }");
  const required = message.fields.filter(isRequired);
  if (required.length > 0) {
    f.print(
      `  if (v && (${required.map((field) => missing(field, `m.${field.localName}`)).join(" || ")})) `,
      rt.bail,
      "();",
    );
  }
  f.print("  return m;");
  f.print("}");
  f.print();
}

/**
 * `valid<Name>(m)`: no REQUIRED field missing, every enum number declared by
 * its enum, and every number of its Struct and Value fields finite, here and
 * in every message it holds (other well-known types excepted). Spends one
 * unit of the value budget per message.
 */
function printValid(f: GeneratedFile, rt: Runtime, message: DescMessage): void {
  const shape = f.importShape(message);
  f.print(`export function valid${baseName(message)}(m: `, shape, "): boolean {");
  f.print("  ", rt.spend, "(1);");
  const required = message.fields.filter(isRequired);
  if (required.length > 0) {
    f.print(`  if (${required.map((field) => missing(field, `m.${field.localName}`)).join(" || ")}) return false;`);
  }
  for (const field of message.fields) {
    const item = itemOf(field);
    if (item.kind === "enum") {
      printValidEnum(f, field, `known${enumName(item.enum)}`);
      continue;
    }
    if (item.kind !== "message") continue;
    const name = item.message.typeName;
    const check =
      name === STRUCT
        ? rt.validStruct
        : name === VALUE
          ? rt.validValue
          : name.startsWith("google.protobuf.")
            ? undefined
            : `valid${baseName(item.message)}`;
    if (check === undefined) continue;
    if (field.oneof) {
      const oneof = `m.${field.oneof.localName}`;
      f.print(
        `  if (${oneof}.case === ${JSON.stringify(field.localName)} && !`,
        check,
        `(${oneof}.value)) return false;`,
      );
    } else if (field.fieldKind === "list") {
      f.print(`  for (const x of m.${field.localName}) if (!`, check, "(x)) return false;");
    } else if (field.fieldKind === "map") {
      f.print(`  for (const x of Object.values(m.${field.localName})) if (!`, check, "(x)) return false;");
    } else {
      f.print(`  if (m.${field.localName} !== undefined && !`, check, `(m.${field.localName})) return false;`);
    }
  }
  f.print("  return true;");
  f.print("}");
  f.print();
}

/** The statement of `valid<Name>` that refuses an enum number its enum does not declare. */
function printValidEnum(f: GeneratedFile, field: DescField, known: string): void {
  const local = `m.${field.localName}`;
  if (field.oneof) {
    const oneof = `m.${field.oneof.localName}`;
    f.print(`  if (${oneof}.case === ${JSON.stringify(field.localName)} && !${known}(${oneof}.value)) return false;`);
  } else if (field.fieldKind === "list") {
    f.print(`  for (const x of ${local}) if (!${known}(x)) return false;`);
  } else if (field.fieldKind === "map") {
    f.print(`  for (const x of Object.values(${local})) if (!${known}(x as number)) return false;`);
  } else if (isImplicit(field)) {
    f.print(`  if (!${known}(${local})) return false;`);
  } else {
    f.print(`  if (${local} !== undefined && !${known}(${local})) return false;`);
  }
}

function printEnum(f: GeneratedFile, rt: Runtime, e: DescEnum): void {
  const name = enumName(e);
  // The values by their names in the generated TypeScript enum: code that must not load the enum's file (it
  // holds the descriptors, and a bundler splits code by file) reads them here.
  f.print(f.jsDoc(`The values of ${e.typeName}, by the names of its generated TypeScript enum.`));
  f.print(`export const ${name[0]?.toLowerCase()}${name.slice(1)}Values = {`);
  for (const value of e.values) f.print(`  ${value.localName}: ${value.number},`);
  f.print("} as const;");
  f.print();
  f.print(`function write${name}(x: number): string {`);
  f.print("  switch (x) {");
  const seen = new Set<number>();
  for (const value of e.values) {
    if (seen.has(value.number)) continue;
    seen.add(value.number);
    f.print(`    case ${value.number}: return ${JSON.stringify(JSON.stringify(enumValueJsonName(value)))};`);
  }
  f.print("    default: return JSON.stringify(x);");
  f.print("  }");
  f.print("}");
  f.print();
  // JSON names first, proto names last (they win a clash), as protobuf-es reads them.
  const numbers = new Map<string, number>();
  for (const value of e.values) numbers.set(enumValueJsonName(value), value.number);
  for (const value of e.values) numbers.set(value.name, value.number);
  // Open enums take any int32 number as is; a request (`v`) takes only the declared ones (src/a2a/enum-values.ts).
  // Exported: the client reads a caller's enum value (a name or a number) with it, without the enum's descriptor.
  f.print(`export function read${name}(x: unknown, v: boolean): number {`);
  f.print("  switch (x) {");
  for (const [n, number] of numbers) f.print(`    case ${JSON.stringify(n)}: return ${number};`);
  f.print("  }");
  f.print("  const n = ", rt.readInt32, "(x);");
  f.print(`  if (v && !known${name}(n)) `, rt.bail, "();");
  f.print("  return n;");
  f.print("}");
  f.print();
  f.print(`function known${name}(x: number): boolean {`);
  f.print("  switch (x) {");
  for (const number of seen) f.print(`    case ${number}:`);
  f.print("      return true;");
  f.print("  }");
  f.print("  return false;");
  f.print("}");
  f.print();
}

function usedEnums(messages: Iterable<DescMessage>): DescEnum[] {
  const out = new Set<DescEnum>();
  for (const m of messages) for (const field of m.fields) if (field.fieldKind === "enum") out.add(field.enum);
  return [...out];
}

function generateTs(schema: Schema): void {
  fieldBehavior = schema.allFiles
    .flatMap((file) => file.extensions)
    .find((e) => e.typeName === "google.api.field_behavior");
  // The files that declare a service: their messages are what the bindings read and write.
  for (const file of schema.files) {
    if (file.services.length === 0) continue;
    const { supported, without } = supportedMessages(file);
    warnWithout(file, without);
    if (supported.size === 0) continue;
    // Two files: the codecs and the client's table, which name no descriptor, and the table keyed by
    // descriptor. A bundler splits code by file: a client reaching the codecs alone leaves the descriptors out.
    const f = schema.generateFile(`${file.name}_json_codecs.ts`);
    f.preamble(file);
    const rt = Object.fromEntries(
      [
        "bail",
        "putString",
        "endWrite",
        "hasOwn",
        "readString",
        "readBool",
        "readInt32",
        "readBytes",
        "putBytes",
        "readObject",
        "readMapKey",
        "putTimestamp",
        "readTimestamp",
        "putStruct",
        "readStruct",
        "putValue",
        "readValue",
        "spend",
        "validStruct",
        "validValue",
        "MAX_DEPTH",
      ].map((name) => [name, f.import(name, RUNTIME)]),
    ) as Runtime;
    const ordered = allMessages(file).filter((m) => supported.has(m));
    for (const e of usedEnums(ordered)) printEnum(f, rt, e);
    for (const message of ordered) {
      printWriter(f, rt, message);
      printReader(f, rt, message);
      printValid(f, rt, message);
    }
    printClientTable(f, file, supported);
    const t = schema.generateFile(`${file.name}_json.ts`);
    t.preamble(file);
    const codecsFile = `./${file.name.split("/").pop()}_json_codecs.js`;
    const codec = t.import("JsonCodec", RUNTIME, true);
    const descMessage = t.import("DescMessage", "@bufbuild/protobuf", true);
    t.print(
      t.jsDoc(
        `ProtoJSON codecs of the messages of ${file.proto.name} that have one (see tools/protoc-gen-a2a-json.ts): ` +
          "a fast path that bails out to the reflective codec on anything it does not handle exactly.",
      ),
    );
    t.print(
      t.export("const", fileTableName(file, "JsonCodecs")),
      ": ReadonlyMap<",
      descMessage,
      ", ",
      codec,
      "> = /*@__PURE__*/ new Map<",
      descMessage,
      ", ",
      codec,
      ">([",
    );
    for (const message of ordered) {
      const name = baseName(message);
      t.print(
        "  [",
        t.importSchema(message),
        ", { write: ",
        t.import(`write${name}`, codecsFile),
        " as ",
        codec,
        `["write"], read: `,
        t.import(`read${name}`, codecsFile),
        ", valid: ",
        t.import(`valid${name}`, codecsFile),
        " as ",
        codec,
        `["valid"] }],`,
      );
    }
    t.print("]);");
  }
}

/**
 * The calling side's table: per RPC of the file's services, the writer of
 * its request and the reader of its reply (undefined for a type without a
 * codec). It names no descriptor, so a client that reaches the codecs through
 * it leaves protobuf-es's reflection, and the codecs it never calls (request
 * readers, reply writers, the validity checks), out of its bundle.
 */
function printClientTable(f: GeneratedFile, file: DescFile, supported: ReadonlySet<DescMessage>): void {
  const codecOf = (m: DescMessage, kind: "write" | "read") =>
    supported.has(m) ? `${kind}${baseName(m)}` : "undefined";
  f.print(
    f.jsDoc(
      `The calling side's codecs of each RPC of ${file.proto.name}: the request's writer and the reply's reader ` +
        "(undefined where the type has no codec). Reaching the codecs through this table names no descriptor.",
    ),
  );
  f.print(f.export("const", fileTableName(file, "ClientJson")), " = {");
  const seen = new Set<string>();
  for (const service of file.services) {
    for (const method of service.methods) {
      if (seen.has(method.name)) throw new Error(`${method.name}: two services of ${file.name} declare it`);
      seen.add(method.name);
      f.print(
        `  ${method.name}: { write: ${codecOf(method.input, "write")}, read: ${codecOf(method.output, "read")} },`,
      );
    }
  }
  f.print("} as const;");
}

runNodeJs(
  createEcmaScriptPlugin({
    name: "protoc-gen-a2a-json",
    version: "v1",
    generateTs,
  }),
);
