/** The person's answer to a HITL message (the reference's `HITLResponse`). */
import { create, type JsonObject } from "@bufbuild/protobuf";
import { type HitlResponse, HitlResponseSchema } from "../../gen/novaos/v1/hitl_pb.js";

export interface HitlResponseOptions {
  /** The value typed, for input requests. */
  inputValue?: string;
  metadata?: JsonObject;
}

/** Builds a HITL response: `actionId` is the pressed `HitlAction.id`, `sessionId` the HITL message's. */
export function hitlResponse(actionId: string, sessionId: string, options: HitlResponseOptions = {}): HitlResponse {
  return create(HitlResponseSchema, {
    actionId,
    sessionId,
    inputValue: options.inputValue,
    metadata: options.metadata,
  });
}

export type { HitlResponse };
