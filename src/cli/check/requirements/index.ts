/**
 * Every requirement `check` verifies, in the order it runs them: the card
 * once, then on each interface the card declares, reachability first (the
 * rest is skipped on an interface that does not answer A2A).
 */
import { GRPC_STATUS_CODES } from "../../../protocol/index.js";
import { type BindingRequirement, fail, pass, type Requirement } from "../requirement.js";
import { describeError } from "../scenario.js";
import { CAPABILITY_REQUIREMENTS } from "./capabilities.js";
import { CARD_REQUIREMENTS } from "./card.js";
import { ERROR_REQUIREMENTS } from "./errors.js";
import { JSON_ENCODING_REQUIREMENTS } from "./json-encoding.js";
import { MALFORMED_REQUIREMENTS } from "./malformed.js";
import { MESSAGE_REQUIREMENTS } from "./messages.js";
import { SERVICE_PARAMETER_REQUIREMENTS } from "./service-parameters.js";
import { STREAMING_REQUIREMENTS } from "./streaming.js";
import { TASK_REQUIREMENTS, unknownTaskReply } from "./tasks.js";

export const REACHABLE: BindingRequirement = {
  id: "INTERFACE-ANSWERS",
  section: "§8.3.1",
  level: "MUST",
  scope: "binding",
  title: "the interface URL answers in its declared binding",
  async run(ctx) {
    const reply = await unknownTaskReply(ctx);
    if (reply.ok) return pass();
    const e = reply.error;
    const unavailable = e.grpcCode === GRPC_STATUS_CODES.UNAVAILABLE && e.reason === undefined;
    const structured =
      e.jsonRpcCode !== undefined || e.reason !== undefined || e.statusName !== undefined || e.grpcCode !== undefined;
    return structured && !unavailable ? pass() : fail(describeError(reply));
  },
};

export const REQUIREMENTS: readonly Requirement[] = [
  ...CARD_REQUIREMENTS,
  REACHABLE,
  ...MESSAGE_REQUIREMENTS,
  ...TASK_REQUIREMENTS,
  ...STREAMING_REQUIREMENTS,
  ...CAPABILITY_REQUIREMENTS,
  ...SERVICE_PARAMETER_REQUIREMENTS,
  ...ERROR_REQUIREMENTS,
  ...JSON_ENCODING_REQUIREMENTS,
  ...MALFORMED_REQUIREMENTS,
];
