/**
 * `ctx.tools.code`: runs code in a fresh sandbox per call (no state survives
 * it). A program that ran answers its exit code and output, whatever the
 * code; a call may have effects through the files it writes, so it is sent
 * once, never retried.
 */
import type { components } from "../../gen/openapi/mcp-gateway.js";
import { ToolBinding } from "./tool-binding.js";
import type { ToolCallOptions } from "./tool-caller.js";
import type { ToolArguments, ToolResult } from "./tool-catalog.js";

export type CodeLanguage = components["schemas"]["CodeLanguage"];

export class CodeTool extends ToolBinding {
  /** Runs `code` (python, javascript, typescript or bash) with the given stdin, args and files. */
  execute(
    language: CodeLanguage,
    code: string,
    args: Omit<ToolArguments<"novaos.code.execute">, "language" | "code"> = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.code.execute">> {
    return this.caller.call("novaos.code.execute", { ...args, language, code }, options);
  }
}
