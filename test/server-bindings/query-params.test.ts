import { fromJson } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  ListTasksRequestSchema,
  SecurityRequirementSchema,
  SendMessageConfigurationSchema,
  SendMessageRequestSchema,
} from "../../gen/a2a_pb.js";
import { InvalidParamsError } from "../../src/a2a/errors.js";
import { queryToJson } from "../../src/server/http-json/query-params.js";

const q = (text: string) => new URLSearchParams(text);
const none = new Set<string>();

describe("query parameters → request JSON (§11.5)", () => {
  it("takes a repeated field from repeated parameters and from comma lists", () => {
    const json = queryToJson(
      SendMessageConfigurationSchema,
      q("acceptedOutputModes=text/plain,application/json&accepted_output_modes=image/png"),
      none,
    );
    expect(json).toEqual({ acceptedOutputModes: ["text/plain", "application/json", "image/png"] });
    expect(fromJson(SendMessageConfigurationSchema, json).acceptedOutputModes).toHaveLength(3);
  });

  it("maps booleans, numbers, enums and timestamps to their ProtoJSON forms", () => {
    expect(
      queryToJson(
        ListTasksRequestSchema,
        q(
          "includeArtifacts=true&pageSize=7&status=TASK_STATE_FAILED&historyLength=2&statusTimestampAfter=2025-11-09T10:30:00Z",
        ),
        none,
      ),
    ).toEqual({
      includeArtifacts: true,
      pageSize: "7",
      status: "TASK_STATE_FAILED",
      historyLength: "2",
      statusTimestampAfter: "2025-11-09T10:30:00Z",
    });
    expect(queryToJson(ListTasksRequestSchema, q("status=4"), none)).toEqual({ status: 4 });
  });

  it("skips fields bound by the path and parameters that name no field", () => {
    expect(
      queryToJson(ListTasksRequestSchema, q("tenant=x&A2A-Version=1.0&nope=1&contextId=c"), new Set(["tenant"])),
    ).toEqual({
      contextId: "c",
    });
  });

  it.each([
    [SendMessageRequestSchema, "message=hi", "message", /nested objects/],
    [SecurityRequirementSchema, "schemes=a", "schemes", /maps/],
    [ListTasksRequestSchema, "includeArtifacts=1", "includeArtifacts", /true or false/],
    [ListTasksRequestSchema, "statusTimestampAfter=2025-11-09", "statusTimestampAfter", /RFC 3339/],
    [ListTasksRequestSchema, "contextId=a&contextId=b", "contextId", /more than once/],
  ] as const)("refuses %#: %s with InvalidParamsError naming the field", (schema, query, field, why) => {
    let thrown: unknown;
    try {
      queryToJson(schema, q(query), none);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(InvalidParamsError);
    const detail = (thrown as InvalidParamsError).errorDetails[0] as unknown as {
      fieldViolations: { field: string; description: string }[];
    };
    expect(detail.fieldViolations[0]?.field).toBe(field);
    expect(detail.fieldViolations[0]?.description).toMatch(why);
  });
});
