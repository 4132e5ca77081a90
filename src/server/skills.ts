/**
 * The skill registry and request routing. Skills are keyed by the id the
 * card publishes (default: the name), so a card can never advertise an id
 * the agent would refuse. A single-skill agent routes every request to its
 * skill; with several, the caller names one in `message.metadata.skillId` or
 * the platform context's `config.skill`, and an unroutable request for a new
 * task becomes a REJECTED task (an answer, not an error).
 *
 * A task records the skill that owns it (`Task.metadata.skillId`). A
 * follow-up on an existing task goes to that skill when it names none; one
 * naming another or an unknown skill is an error for that request only
 * (-32602): it never preempts the running skill and never rejects the task.
 */
import { create, type JsonObject } from "@bufbuild/protobuf";
import { type AgentSkill, AgentSkillSchema, type Message, type Task } from "../../gen/a2a_pb.js";
import { UnsupportedOperationError } from "../a2a/errors.js";
import { invalidParams } from "../a2a/protojson.js";
import type { PlatformContext } from "../messages/platform-context.js";
import { SKILL_ID_METADATA_KEY } from "../messages/wire-keys.js";
import type { SkillHandler } from "./execution.js";

export { SKILL_ID_METADATA_KEY };

export interface SkillOptions {
  /** Default: the name (the card needs one, decision S650). */
  description?: string;
  /** The routing key and the card's `AgentSkill.id`; default: the name. */
  id?: string;
  /** Default: the skill's id as its one tag (the card needs at least one, decision S650). */
  tags?: readonly string[];
  examples?: readonly string[];
  /** Media types the skill accepts; parts with another explicit media type are refused (-32005). */
  inputModes?: readonly string[];
  /** Media types the skill produces; default: the agent's `defaultOutputModes`. */
  outputModes?: readonly string[];
  /**
   * The skill may answer with a direct Message (`SkillResult.replyAs:
   * "message"`) instead of a task. Its task is then made only when the skill
   * first writes to it or returns a task result, so a stream's first frame
   * waits for that. Default false.
   */
  directReplies?: boolean;
}

export interface RegisteredSkill {
  readonly card: AgentSkill;
  readonly handler: SkillHandler;
  readonly directReplies: boolean;
}

export function registeredSkill(name: string, options: SkillOptions, handler: SkillHandler): RegisteredSkill {
  if (!name) throw new TypeError("A skill needs a non-empty name");
  if (typeof handler !== "function") throw new TypeError(`Skill '${name}' needs a handler function`);
  const id = options.id || name;
  const card = create(AgentSkillSchema, {
    id,
    name,
    description: options.description || name,
    tags: options.tags?.length ? [...options.tags] : [id],
    examples: [...(options.examples ?? [])],
    inputModes: [...(options.inputModes ?? [])],
    outputModes: [...(options.outputModes ?? [])],
  });
  return { card, handler, directReplies: options.directReplies ?? false };
}

export type SkillRoute = { readonly skill: RegisteredSkill } | { readonly rejection: string };

function skillIdFrom(metadata: JsonObject | undefined): string | undefined {
  const value = metadata?.[SKILL_ID_METADATA_KEY];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The skill that owns a task, as the task records it (none for a task stored before skills were recorded). */
export function owningSkillId(task: Task): string | undefined {
  return skillIdFrom(task.metadata);
}

/**
 * The skill a message asks for, or why none can run it. For a message on an
 * existing `task`, the task's own skill, or a thrown error naming what is
 * wrong with the request (never a rejection of the task).
 */
export function routeSkill(
  skills: ReadonlyMap<string, RegisteredSkill>,
  message: Message,
  platform: PlatformContext | undefined,
  task?: Task,
): SkillRoute {
  const ids = [...skills.keys()];
  const requested = skillIdFrom(message.metadata) ?? skillIdFrom(configSkill(platform));
  if (task) return { skill: followUpSkill(skills, task, requested) };
  if (ids.length === 0) return { rejection: "This agent has no skills" };
  if (ids.length === 1) return { skill: skills.get(ids[0] as string) as RegisteredSkill };
  if (requested === undefined) {
    return {
      rejection: `This agent has several skills (${ids.join(", ")}); name one in message.metadata.${SKILL_ID_METADATA_KEY}`,
    };
  }
  const skill = skills.get(requested);
  return skill ? { skill } : { rejection: `Unknown skill '${requested}'; this agent's skills are: ${ids.join(", ")}` };
}

/** The skill a follow-up on `task` goes to: the one that owns the task; a request naming another is refused. */
function followUpSkill(
  skills: ReadonlyMap<string, RegisteredSkill>,
  task: Task,
  requested: string | undefined,
): RegisteredSkill {
  const owner = owningSkillId(task);
  const ids = [...skills.keys()];
  const only = ids.length === 1 ? skills.get(ids[0] as string) : undefined;
  const chosen = owner ?? requested ?? only?.card.id;
  if (requested !== undefined && chosen !== requested) {
    throw invalidParams([
      {
        field: `message.metadata.${SKILL_ID_METADATA_KEY}`,
        description: `Task ${task.id} belongs to skill '${chosen}'; a follow-up goes to that skill (name it, or none), not to '${requested}'`,
      },
    ]);
  }
  if (chosen === undefined) {
    throw invalidParams([
      {
        field: `message.metadata.${SKILL_ID_METADATA_KEY}`,
        description: `Task ${task.id} does not say which skill owns it and this agent has several (${ids.join(", ")}); name one`,
      },
    ]);
  }
  const skill = skills.get(chosen);
  if (skill) return skill;
  if (owner !== undefined) {
    throw new UnsupportedOperationError(`Task ${task.id} belongs to skill '${owner}', which this agent no longer has`, {
      metadata: { taskId: task.id },
    });
  }
  throw invalidParams([
    {
      field: `message.metadata.${SKILL_ID_METADATA_KEY}`,
      description: `Unknown skill '${chosen}'; this agent's skills are: ${ids.join(", ")}`,
    },
  ]);
}

/** `config.skill` of the platform context, as a metadata-shaped map. */
function configSkill(platform: PlatformContext | undefined): JsonObject | undefined {
  const skill = platform?.config?.skill;
  return typeof skill === "string" ? { [SKILL_ID_METADATA_KEY]: skill } : undefined;
}
