/**
 * What the protoc plugins generating fast paths over protobuf-es share
 * (tools/protoc-gen-a2a-json.ts, tools/protoc-gen-a2a-binary.ts): the
 * message types of a file, which of them a plugin can handle completely,
 * and the names of the generated functions and tables.
 */
import type { DescField, DescFile, DescMessage } from "@bufbuild/protobuf";
import { Edition } from "@bufbuild/protobuf/wkt";

export const TIMESTAMP = "google.protobuf.Timestamp";
export const STRUCT = "google.protobuf.Struct";
export const VALUE = "google.protobuf.Value";

/** A field without explicit presence: its zero value is not written. */
export const isImplicit = (field: DescField) => field.presence === 2; // FeatureSet.FieldPresence.IMPLICIT

/** Every message type of the file, nested ones after their parent. */
export function allMessages(file: DescFile): DescMessage[] {
  const out: DescMessage[] = [];
  const visit = (m: DescMessage) => {
    out.push(m);
    m.nestedMessages.forEach(visit);
  };
  file.messages.forEach(visit);
  return out;
}

/**
 * The proto3 types among `candidates` whose every field `fieldSupported`
 * accepts, given the types still supported: a type that loses a field type
 * is dropped, and the types holding it are checked again.
 */
export function fullySupported(
  candidates: Iterable<DescMessage>,
  fieldSupported: (field: DescField, supported: ReadonlySet<DescMessage>) => boolean,
): Set<DescMessage> {
  const supported = new Set([...candidates].filter((m) => m.file.edition === Edition.EDITION_PROTO3));
  let changed = true;
  while (changed) {
    changed = false;
    for (const m of [...supported]) {
      if (!m.fields.every((f) => fieldSupported(f, supported))) {
        supported.delete(m);
        changed = true;
      }
    }
  }
  return supported;
}

/** `lf.a2a.v1.Foo.Bar` → `Foo_Bar`, the suffix of a generated function's name. */
export function baseName(m: DescMessage): string {
  return m.typeName.slice(m.file.proto.package.length + 1).replace(/\./g, "_");
}

/** The exported table of a file: `a2a.proto` and `JsonCodecs` → `a2aJsonCodecs`. */
export function fileTableName(file: DescFile, suffix: string): string {
  const base = file.name.split("/").pop() as string;
  return base.replace(/[_-]([a-z0-9])/g, (_, c: string) => c.toUpperCase()) + suffix;
}
