/**
 * `ctx.tools.files`: file storage scoped to this run (`scope: "run"`, the
 * default) or kept across the agent instance's runs (`scope: "agent"`).
 * Paths are relative, `/`-separated, without `.` or `..` segments; content is
 * UTF-8 text or base64 bytes (`encoding`). A write replaces and a delete of
 * nothing answers `deleted: false`, so every call may be retried.
 */
import { ToolBinding } from "./tool-binding.js";
import type { ToolCallOptions } from "./tool-caller.js";
import type { ToolArguments, ToolResult } from "./tool-catalog.js";

export type FileInfo = ToolResult<"novaos.files.write">;

export class FilesTool extends ToolBinding {
  /** The files of a scope, optionally under `prefix`, a page at a time. */
  list(
    args: ToolArguments<"novaos.files.list"> = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.files.list">> {
    return this.caller.call("novaos.files.list", args, options);
  }

  /** A file's content; read a file that is not UTF-8 with `encoding: "base64"`. */
  read(
    path: string,
    args: Omit<ToolArguments<"novaos.files.read">, "path"> = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.files.read">> {
    return this.caller.call("novaos.files.read", { ...args, path }, options);
  }

  /** Creates or replaces a file (at most 10 MiB); `if_match` replaces only the version with that etag. */
  write(
    path: string,
    content: string,
    args: Omit<ToolArguments<"novaos.files.write">, "path" | "content"> = {},
    options?: ToolCallOptions,
  ): Promise<FileInfo> {
    return this.caller.call("novaos.files.write", { ...args, path, content }, options);
  }

  /** Deletes a file; `deleted` is false when there was none. */
  delete(
    path: string,
    args: Omit<ToolArguments<"novaos.files.delete">, "path"> = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.files.delete">> {
    return this.caller.call("novaos.files.delete", { ...args, path }, options);
  }
}
