/**
 * The options that shape an outgoing message (`send`, `stream`, `chat`):
 * the skill, the task and context it continues, a JSON data part and file
 * parts. Bad input here is a usage error, caught before anything is sent.
 */
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { fromJson, type JsonValue, type MessageInitShape } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import type { Command } from "commander";
import type { MessageInput, PartSchema } from "../index.js";
import { CliUsageError } from "./cli-errors.js";

export interface MessageOptions {
  skill?: string;
  task?: string;
  context?: string;
  data?: string;
  file?: string[];
}

/** A few common types; anything else is sent as application/octet-stream. */
const MEDIA_TYPES: Record<string, string> = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".json": "application/json",
  ".csv": "text/csv",
  ".html": "text/html",
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
};

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function addMessageOptions(command: Command): Command {
  return command
    .option("--skill <id>", "the skill to run (message.metadata.skillId)")
    .option("--task <id>", "continue this task (e.g. one waiting for input)")
    .option("--context <id>", "the conversation (contextId)")
    .option("--data <json>", "add a data part with this JSON")
    .option("--file <path>", "add a file part (repeatable)", collect);
}

export function parseDataOption(data: string): JsonValue {
  try {
    return JSON.parse(data) as JsonValue;
  } catch (error) {
    throw new CliUsageError(`--data is not valid JSON: ${(error as Error).message}`);
  }
}

/** The message for `text` plus the data and file parts the options name. */
export async function buildMessage(text: string | undefined, options: MessageOptions): Promise<MessageInput> {
  const parts: MessageInitShape<typeof PartSchema>[] = [];
  if (text !== undefined && text !== "") parts.push({ content: { case: "text", value: text } });
  if (options.data !== undefined)
    parts.push({ content: { case: "data", value: fromJson(ValueSchema, parseDataOption(options.data)) } });
  for (const path of options.file ?? []) {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(path);
    } catch (error) {
      throw new CliUsageError(`cannot read --file ${path}: ${(error as Error).message}`);
    }
    parts.push({
      content: { case: "raw", value: bytes },
      filename: basename(path),
      mediaType: MEDIA_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream",
    });
  }
  if (parts.length === 0) throw new CliUsageError("nothing to send: give TEXT, --data or --file");
  return { parts };
}

export function addressingOf(options: MessageOptions): { skillId?: string; taskId?: string; contextId?: string } {
  return {
    ...(options.skill ? { skillId: options.skill } : {}),
    ...(options.task ? { taskId: options.task } : {}),
    ...(options.context ? { contextId: options.context } : {}),
  };
}
