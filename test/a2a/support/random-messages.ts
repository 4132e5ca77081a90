/**
 * Seeded random A2A messages and JSON inputs, for holding the generated
 * ProtoJSON codecs to protobuf-es: messages built from the descriptors (every
 * field kind, unusual strings, integer-like map keys, timestamps at every
 * precision, nested Struct and Value), and mutations of their JSON (proto
 * names, duplicates, nulls, wrong types, string numbers, unknown names,
 * missing fields, lone surrogates) that a reader must handle exactly like
 * protobuf-es or leave to it.
 */
import {
  create,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type MessageShape,
  ScalarType,
} from "@bufbuild/protobuf";
import { type Timestamp, TimestampSchema, type Value, ValueSchema } from "@bufbuild/protobuf/wkt";

/** mulberry32: small, fast, seeded. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class RandomMessages {
  readonly #next: () => number;
  readonly #loneSurrogates: boolean;

  /** `loneSurrogates`: strings may hold unpaired surrogates (protobuf-es writes them, but refuses to read them). */
  constructor(seed: number, options: { loneSurrogates?: boolean } = {}) {
    this.#next = seededRandom(seed);
    this.#loneSurrogates = options.loneSurrogates ?? false;
  }

  chance(p: number): boolean {
    return this.#next() < p;
  }

  int(below: number): number {
    return Math.floor(this.#next() * below);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  string(): string {
    return this.pick([
      "",
      "hello",
      "Hello, bench! This is the echo payload.",
      'quote " and backslash \\ and slash /',
      "control \u0000\u0001\u001f\n\t\r",
      "unicode é ü 漢字 😀 \u2028\u2029",
      "__proto__",
      "10",
      "TASK_STATE_COMPLETED",
      `${this.int(1_000_000)}`,
      "x".repeat(this.int(300)),
      this.#loneSurrogates ? "lone \ud800 and \udfff" : "pair \ud83d\ude00",
    ]);
  }

  key(): string {
    return this.pick(["a", "b", "skillId", "10", "2", "with space", "ünï", "", `k${this.int(5)}`, "0", "-1"]);
  }

  json(depth = 0): JsonValue {
    const leaf = depth > 3 || this.chance(0.6);
    if (leaf) {
      return this.pick<() => JsonValue>([
        () => null,
        () => this.chance(0.5),
        () => this.pick([0, -0, 1, -1, 1.5, 1e21, 1e-7, 2 ** 53, -(2 ** 31), 123456.789]),
        () => this.string(),
      ])();
    }
    if (this.chance(0.5)) return Array.from({ length: this.int(4) }, () => this.json(depth + 1));
    return this.object(depth + 1);
  }

  object(depth = 0): JsonObject {
    const out: JsonObject = {};
    const n = this.int(4);
    for (let i = 0; i < n; i++) out[this.key()] = this.json(depth);
    return out;
  }

  value(depth = 0): Value {
    return toValue(this.json(depth));
  }

  timestamp(): Timestamp {
    const seconds = BigInt(this.pick([0, 1, 1_700_000_000, -62135596800, 253402300799, this.int(2_000_000_000)]));
    const nanos = this.pick([0, 0, 1_000_000 * this.int(1000), 1000 * this.int(1_000_000), this.int(1_000_000_000)]);
    return create(TimestampSchema, { seconds, nanos });
  }

  /** A message of `schema` that protobuf-es can write (every value of the right type). */
  message<S extends DescMessage>(schema: S, depth = 0): MessageShape<S> {
    const init: Record<string, unknown> = {};
    const oneofsSet = new Set<string>();
    for (const field of schema.fields) {
      if (!this.chance(depth > 2 ? 0.3 : 0.7)) continue;
      if (field.oneof) {
        if (oneofsSet.has(field.oneof.localName)) continue;
        oneofsSet.add(field.oneof.localName);
        init[field.oneof.localName] = { case: field.localName, value: this.#single(field, depth) };
        continue;
      }
      if (field.fieldKind === "list") {
        init[field.localName] = Array.from({ length: this.int(depth > 2 ? 2 : 4) }, () => this.#single(field, depth));
      } else if (field.fieldKind === "map") {
        const map: Record<string, unknown> = {};
        for (let i = this.int(4); i > 0; i--) map[this.key()] = this.#single(field, depth);
        init[field.localName] = map;
      } else {
        init[field.localName] = this.#single(field, depth);
      }
    }
    return create(schema, init as never);
  }

  #single(field: DescField, depth: number): unknown {
    const kind =
      field.fieldKind === "list" ? field.listKind : field.fieldKind === "map" ? field.mapKind : field.fieldKind;
    if (kind === "enum") {
      const e = (field as { enum: { values: { number: number }[] } }).enum;
      return this.chance(0.9) ? this.pick(e.values).number : 42;
    }
    if (kind === "message") {
      const message = (field as { message: DescMessage }).message;
      switch (message.typeName) {
        case "google.protobuf.Timestamp":
          return this.timestamp();
        case "google.protobuf.Struct":
          return this.object();
        case "google.protobuf.Value":
          return this.value();
        default:
          return this.message(message, depth + 1);
      }
    }
    switch ((field as { scalar: ScalarType }).scalar) {
      case ScalarType.STRING:
        return this.string();
      case ScalarType.BOOL:
        return this.chance(0.5);
      case ScalarType.INT32:
        return this.pick([0, 1, -1, 50, 0x7fffffff, -0x80000000, this.int(1000)]);
      case ScalarType.BYTES:
        return Uint8Array.from({ length: this.int(12) }, () => this.int(256));
      default:
        throw new Error(`no random value for ${field}`);
    }
  }

  /**
   * A mutation of `json` (in place, anywhere in the tree): the cases a
   * generated reader must answer exactly or leave to protobuf-es.
   */
  mutate(json: JsonValue): void {
    const objects: JsonObject[] = [];
    const collect = (x: JsonValue) => {
      if (Array.isArray(x)) x.forEach(collect);
      else if (x !== null && typeof x === "object") {
        objects.push(x);
        Object.values(x).forEach(collect);
      }
    };
    collect(json);
    const target = objects.length > 0 ? this.pick(objects) : undefined;
    if (!target) return;
    const keys = Object.keys(target);
    const key = keys.length > 0 ? this.pick(keys) : "zzUnknown";
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const value = target[key];
    const set = (k: string, v: JsonValue) =>
      Object.defineProperty(target, k, { value: v, enumerable: true, writable: true, configurable: true });
    switch (this.int(14)) {
      case 0:
        delete target[key];
        break;
      case 1:
        set(key, null);
        break;
      case 2:
        set("zzUnknown", this.json());
        break;
      case 3:
        // The proto name instead of the JSON name.
        delete target[key];
        set(snake, value ?? null);
        break;
      case 4:
        // Both names: "set multiple times".
        set(snake, value ?? null);
        break;
      case 5:
        set(key, typeof value === "number" ? String(value) : typeof value === "string" ? Number(value) || 7 : 7);
        break;
      case 6:
        set(key, this.pick(["\ud800", "a\udfffb", "ok"]));
        break;
      case 7:
        set(key, this.pick<JsonValue>([[], {}, "x", true, 1.5, [null], [1], { a: null }]));
        break;
      case 8:
        set(key, this.pick(["TASK_STATE_NOPE", "ROLE_AGENT", "TASK_STATE_WORKING", 3, -1, 2 ** 40]));
        break;
      case 9:
        set(
          key,
          this.pick([
            "2026-01-02T03:04:05Z",
            "2026-01-02T03:04:05.123456789+01:00",
            "2026-13-02T03:04:05Z",
            "nope",
            "0000-01-01T00:00:00Z",
          ]),
        );
        break;
      case 10:
        set("__proto__", { polluted: true });
        break;
      case 11:
        set(key, this.pick(["AAEC", "AAEC/w==", "_-_-", "not base64!", ""]));
        break;
      case 12: {
        let deep: JsonValue = 1;
        for (let i = 0; i < 120; i++) deep = [deep];
        set(key, deep);
        break;
      }
      default:
        set(key, this.json());
    }
  }
}

function toValue(json: JsonValue): Value {
  if (json === null) return create(ValueSchema, { kind: { case: "nullValue", value: 0 } });
  switch (typeof json) {
    case "number":
      return create(ValueSchema, { kind: { case: "numberValue", value: json } });
    case "string":
      return create(ValueSchema, { kind: { case: "stringValue", value: json } });
    case "boolean":
      return create(ValueSchema, { kind: { case: "boolValue", value: json } });
  }
  if (Array.isArray(json)) {
    return create(ValueSchema, { kind: { case: "listValue", value: { values: json.map(toValue) } } });
  }
  const fields: Record<string, Value> = {};
  for (const [k, v] of Object.entries(json)) fields[k] = toValue(v);
  return create(ValueSchema, { kind: { case: "structValue", value: { fields } } });
}
