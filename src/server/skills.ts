/**
 * The skill registry and request routing. Skills are keyed by the id the
 * card publishes (default: the name), so a card can never advertise an id
 * the agent would refuse. A single-skill agent routes every request to its
 * skill; with several, the caller names one in `message.metadata.skillId` or
 * the platform context's `config.skill`, and an unroutable request becomes a
 * REJECTED task (an answer, not an error).
 */
import { create, type JsonObject } from "@bufbuild/protobuf";
import { type AgentSkill, AgentSkillSchema, type Message } from "../../gen/a2a_pb.js";
import type { PlatformContext } from "../messages/platform-context.js";
import { SKILL_ID_METADATA_KEY } from "../messages/wire-keys.js";
import type { SkillHandler } from "./execution.js";

export { SKILL_ID_METADATA_KEY };

export interface SkillOptions {
  description?: string;
  /** The routing key and the card's `AgentSkill.id`; default: the name. */
  id?: string;
  tags?: readonly string[];
  examples?: readonly string[];
  /** Media types the skill accepts; parts with another explicit media type are refused (-32005). */
  inputModes?: readonly string[];
  /** Media types the skill produces; default: the agent's `defaultOutputModes`. */
  outputModes?: readonly string[];
}

export interface RegisteredSkill {
  readonly card: AgentSkill;
  readonly handler: SkillHandler;
}

export function registeredSkill(name: string, options: SkillOptions, handler: SkillHandler): RegisteredSkill {
  if (!name) throw new TypeError("A skill needs a non-empty name");
  if (typeof handler !== "function") throw new TypeError(`Skill '${name}' needs a handler function`);
  const card = create(AgentSkillSchema, {
    id: options.id || name,
    name,
    description: options.description ?? "",
    tags: [...(options.tags ?? [])],
    examples: [...(options.examples ?? [])],
    inputModes: [...(options.inputModes ?? [])],
    outputModes: [...(options.outputModes ?? [])],
  });
  return { card, handler };
}

export type SkillRoute = { readonly skill: RegisteredSkill } | { readonly rejection: string };

function skillIdFrom(metadata: JsonObject | undefined): string | undefined {
  const value = metadata?.[SKILL_ID_METADATA_KEY];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The skill a message asks for, or why none can run it. */
export function routeSkill(
  skills: ReadonlyMap<string, RegisteredSkill>,
  message: Message,
  platform: PlatformContext | undefined,
): SkillRoute {
  const ids = [...skills.keys()];
  if (ids.length === 0) return { rejection: "This agent has no skills" };
  if (ids.length === 1) return { skill: skills.get(ids[0] as string) as RegisteredSkill };
  const requested = skillIdFrom(message.metadata) ?? skillIdFrom(configSkill(platform));
  if (requested === undefined) {
    return {
      rejection: `This agent has several skills (${ids.join(", ")}); name one in message.metadata.${SKILL_ID_METADATA_KEY}`,
    };
  }
  const skill = skills.get(requested);
  return skill ? { skill } : { rejection: `Unknown skill '${requested}'; this agent's skills are: ${ids.join(", ")}` };
}

/** `config.skill` of the platform context, as a metadata-shaped map. */
function configSkill(platform: PlatformContext | undefined): JsonObject | undefined {
  const skill = platform?.config?.skill;
  return typeof skill === "string" ? { [SKILL_ID_METADATA_KEY]: skill } : undefined;
}
