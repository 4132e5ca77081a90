import { create, type JsonObject, toJson, fromJson as valueFromJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { ArtifactSchema, MessageSchema, PartSchema } from "../../gen/a2a_pb.js";
import {
  createErrorMessage,
  createHitlMessage,
  createMessageWithHitlResponse,
  createOauthRequiredMessage,
  createProgressMessage,
  createWriteConfirmationRequiredMessage,
  extractAll,
  extractErrorMessage,
  extractHitlMessage,
  extractHitlResponse,
  extractOAuthRequired,
  extractProgressMessage,
  extractSkillError,
  extractToolEvents,
  extractWriteConfirmationRequired,
  hasNovaOSMetadataPart,
  isErrorMessage,
  isHitlMessage,
  isHitlResponse,
  isProgressMessage,
  MessageParser,
  NOVAOS_METADATA_MEDIA_TYPE,
  NOVAOS_METADATA_PART_KEY,
  novaosMetadataPart,
  skillErrorPart,
  toolCallEvent,
  toolEventsPart,
  toolResultEvent,
} from "../../src/messages/index.js";

const HITL_JSON = { hitl_type: "input_request", content: "Name?", requires_user_action: true, session_id: "ctx-7" };
const tag = { [NOVAOS_METADATA_PART_KEY]: NOVAOS_METADATA_MEDIA_TYPE };

describe("MessageParser: the three input forms", () => {
  it("reads the A2A tagged data part, generated or as wire JSON (v1.0 and v0.3 shapes)", () => {
    const built = createHitlMessage("Name?", "input_request", { sessionId: "ctx-7", inputType: "text" });
    const expected = extractHitlMessage(built);
    expect(expected?.sessionId).toBe("ctx-7");
    const json = toJson(MessageSchema, built) as JsonObject;
    expect(extractHitlMessage(json)).toEqual(expected);
    const v03 = {
      kind: "message",
      messageId: "m",
      role: "agent",
      parts: [{ kind: "data", data: { hitl: HITL_JSON }, metadata: tag }],
    };
    expect(extractHitlMessage(v03)?.content).toBe("Name?");
  });

  it("accepts the tag in mediaType alone, in part metadata alone, and with media type parameters", () => {
    const byMediaType = { parts: [{ data: { hitl: HITL_JSON }, mediaType: NOVAOS_METADATA_MEDIA_TYPE }] };
    const byMetadata = { parts: [{ data: { hitl: HITL_JSON }, metadata: tag }] };
    const withParams = {
      parts: [
        { data: { hitl: HITL_JSON }, metadata: { content_type: `${NOVAOS_METADATA_MEDIA_TYPE}; charset=utf-8` } },
      ],
    };
    for (const m of [byMediaType, byMetadata, withParams]) expect(isHitlMessage(m)).toBe(true);
  });

  it("reads the ACP vendor-content-type JSON-string form, and gives undefined for bad JSON in it", () => {
    const acp = {
      parts: [
        { content: "Name?", content_type: "text/plain" },
        { content: JSON.stringify({ hitl: HITL_JSON }), content_type: NOVAOS_METADATA_MEDIA_TYPE },
      ],
    };
    expect(extractHitlMessage(acp)?.sessionId).toBe("ctx-7");
    expect(hasNovaOSMetadataPart(acp)).toBe(true);
    const camel = {
      parts: [{ content: JSON.stringify({ hitl: HITL_JSON }), contentType: NOVAOS_METADATA_MEDIA_TYPE }],
    };
    expect(isHitlMessage(camel)).toBe(true);
    for (const content of ["{not json", "[1,2]", '"str"', "null", ""]) {
      const bad = { parts: [{ content, content_type: NOVAOS_METADATA_MEDIA_TYPE }] };
      expect(extractHitlMessage(bad)).toBeUndefined();
      expect(extractAll(bad)).toEqual({});
    }
  });

  it("reads the legacy metadata-dict form of a message that is not A2A-shaped", () => {
    const legacy = { parts: [{ content: "Name?" }], metadata: { hitl: HITL_JSON, other: 1 } };
    expect(extractHitlMessage(legacy)?.content).toBe("Name?");
    expect(hasNovaOSMetadataPart(legacy)).toBe(false);
    // An A2A message's own metadata map is not a NovaOS payload.
    const a2a = { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "x" }], metadata: { hitl: HITL_JSON } };
    expect(extractHitlMessage(a2a)).toBeUndefined();
  });

  it("reads an artifact as well as a message", () => {
    const artifact = create(ArtifactSchema, {
      artifactId: "a1",
      parts: [novaosMetadataPart({ error: { error_type: "timeout", message: "slow" } })],
    });
    expect(extractErrorMessage(artifact)?.message).toBe("slow");
    expect(extractErrorMessage(toJson(ArtifactSchema, artifact))?.errorType).toBe("timeout");
  });
});

describe("MessageParser: what does not count", () => {
  it("ignores an untagged data part that looks like HITL (an agent's ordinary structured output)", () => {
    const untagged = create(MessageSchema, {
      messageId: "m",
      parts: [
        create(PartSchema, { content: { case: "data", value: valueFromJson(ValueSchema, { hitl: HITL_JSON }) } }),
      ],
    });
    expect(isHitlMessage(untagged)).toBe(false);
    expect(isHitlMessage({ parts: [{ data: { hitl: HITL_JSON } }] })).toBe(false);
    expect(
      isHitlMessage({ parts: [{ data: { hitl: HITL_JSON }, metadata: { content_type: "application/json" } }] }),
    ).toBe(false);
  });

  it("treats a payload missing a REQUIRED field or of the wrong type as absent, and reads the next one", () => {
    const m = {
      parts: [
        { data: { hitl: { content: "no type", requires_user_action: true } }, metadata: tag },
        { data: { hitl: { ...HITL_JSON, content: 42 } }, metadata: tag },
        { data: { hitl: { ...HITL_JSON, content: "third" } }, metadata: tag },
        { data: { hitl: { ...HITL_JSON, content: "fourth" } }, metadata: tag },
      ],
    };
    expect(extractHitlMessage(m)?.content).toBe("third");
  });

  it("treats non-object data parts as absent", () => {
    for (const data of [null, 1, "s", [1], true]) {
      expect(extractAll({ parts: [{ data, metadata: tag }] })).toEqual({});
    }
  });
});

describe("MessageParser: every payload kind", () => {
  it("extracts each kind and reports only what is there", () => {
    const error = createErrorMessage("down", "connection_error");
    expect(Object.keys(extractAll(error))).toEqual(["error"]);
    expect(isErrorMessage(error)).toBe(true);
    expect(isHitlMessage(error) || isProgressMessage(error) || isHitlResponse(error)).toBe(false);

    const progress = createProgressMessage("half", "in_progress", { percentage: 50 });
    expect(extractProgressMessage(progress)?.progress?.percentage).toBe(50);
    expect(Object.keys(extractAll(progress))).toEqual(["progress"]);

    const response = createMessageWithHitlResponse("ok", "approve", "ctx", { inputValue: "v" });
    expect(extractHitlResponse(response)?.inputValue).toBe("v");
    expect(Object.keys(extractAll(response))).toEqual(["hitlResponse"]);

    const oauth = createOauthRequiredMessage("c", "gmail", "https://a.example", { metadata: { scope: "s" } });
    expect(extractOAuthRequired(oauth)).toMatchObject({ payload: { connector: "gmail" }, extra: { scope: "s" } });
    expect(Object.keys(extractAll(oauth))).toEqual(["oauthRequired"]);

    const write = createWriteConfirmationRequiredMessage("w", "call_9", "fs.delete");
    expect(extractWriteConfirmationRequired(write)?.payload.callId).toBe("call_9");
    expect(Object.keys(extractAll(write))).toEqual(["writeConfirmationRequired"]);

    const failed = { parts: [skillErrorPart("boom", "FAILED")] };
    expect(extractSkillError(failed)).toMatchObject({ message: "boom", status: "FAILED" });

    const at = new Date("2026-01-02T03:04:05.678Z");
    const events = [
      toolCallEvent("c1", "knowledge.search", { q: "x" }, at),
      toolResultEvent("c1", "knowledge.search", { success: true, result: [1, 2], durationMs: 12 }, at),
    ];
    const withEvents = { parts: [toolEventsPart(events)] };
    expect(extractToolEvents(withEvents)).toEqual(events);
    expect(Object.keys(extractAll(withEvents))).toEqual(["toolEvents"]);
  });

  it("reads several kinds from one message, and keeps the first of a kind", () => {
    const m = {
      parts: [
        {
          data: { error: { error_type: "a", message: "first" }, progress: { status: "s", message: "p" } },
          metadata: tag,
        },
        { data: { error: { error_type: "b", message: "second" } }, metadata: tag },
      ],
    };
    const all = extractAll(m);
    expect(Object.keys(all).sort()).toEqual(["error", "progress"]);
    expect(all.error?.message).toBe("first");
  });

  it("offers the reference's static-class spelling", () => {
    expect(MessageParser.extractHitlMessage).toBe(extractHitlMessage);
  });
});

/** A small deterministic generator of hostile input. */
function* garbage(seed: number, count: number): Generator<unknown> {
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const leaf = (): unknown =>
    [
      null,
      undefined,
      0,
      -1,
      Number.NaN,
      "",
      "x".repeat(1000),
      true,
      {},
      [],
      NOVAOS_METADATA_MEDIA_TYPE,
      "{",
      JSON.stringify({ hitl: {} }),
      Symbol("s"),
      () => 1,
      10n,
    ][Math.floor(rnd() * 16)];
  const value = (depth: number): unknown => {
    if (depth > 3 || rnd() < 0.3) return leaf();
    if (rnd() < 0.3) return Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth + 1));
    const keys = [
      "parts",
      "data",
      "metadata",
      "content",
      "content_type",
      "mediaType",
      "hitl",
      "error",
      "messageId",
      "role",
    ];
    const o: Record<string, unknown> = {};
    for (const k of keys) if (rnd() < 0.4) o[k] = value(depth + 1);
    return o;
  };
  for (let i = 0; i < count; i++) yield value(0);
  const cyclic: Record<string, unknown> = { parts: [] };
  (cyclic.parts as unknown[]).push(cyclic);
  cyclic.metadata = cyclic;
  yield cyclic;
  yield new Proxy(
    {},
    {
      get() {
        throw new Error("hostile getter");
      },
      has() {
        throw new Error("hostile has");
      },
    },
  );
  yield {
    get parts() {
      throw new Error("hostile parts");
    },
  };
  yield {
    parts: [
      {
        data: { hitl: HITL_JSON },
        get metadata() {
          throw new Error("hostile metadata");
        },
      },
    ],
  };
  yield Object.create(null);
  yield {
    parts: new Proxy([], {
      get: () => {
        throw new Error("hostile array");
      },
    }),
  };
}

describe("MessageParser on garbage", () => {
  it("never throws and finds nothing in 2,000 hostile inputs", () => {
    const readers = [...Object.values(MessageParser), hasNovaOSMetadataPart];
    let n = 0;
    for (const input of garbage(7, 2000)) {
      for (const read of readers) {
        const out = (read as (m: unknown) => unknown)(input);
        expect(
          out === undefined ||
            out === false ||
            (Array.isArray(out) && out.length === 0) ||
            Object.keys(out as object).length === 0,
        ).toBe(true);
      }
      n++;
    }
    expect(n).toBeGreaterThan(2000);
  });
});
