/**
 * The files tools of the local MCP Gateway (`novaos.files.*`), in memory:
 * one folder per tenant and agent for `scope: "agent"`, one per run for
 * `scope: "run"` (the default). A file keeps its bytes, its content type and
 * an etag (the SHA-256 of the bytes); `if_match` with another etag is the
 * files service's 412, a missing file its 404, and a file that is not UTF-8
 * read as `utf-8` a 422, each as an `isError` result. `list` pages in path
 * order; its page token is the last path of the page.
 */
import { createHash } from "node:crypto";
import type { components } from "../../../gen/openapi/mcp-gateway.js";
import { httpFailure, ownerOf, type RunClaims, type ToolHandler } from "./tool-call.js";

type Schemas = components["schemas"];

interface StoredFile {
  readonly bytes: Buffer;
  readonly contentType: string;
  readonly updatedAt: string;
  readonly etag: string;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

function folderKey(claims: RunClaims, scope: Schemas["FileScope"] | undefined): string {
  const owner = ownerOf(claims);
  return [owner.tenantId, owner.agentId, scope === "agent" ? "" : owner.runId].join("\u0000");
}

function info(path: string, file: StoredFile): Schemas["FileInfo"] {
  return {
    path,
    size_bytes: file.bytes.byteLength,
    content_type: file.contentType,
    updated_at: file.updatedAt,
    etag: file.etag,
  };
}

/** The files tools over `folders` (folder key → path → file). */
export function filesTools(folders = new Map<string, Map<string, StoredFile>>()): Record<string, ToolHandler> {
  const folder = (claims: RunClaims, scope: Schemas["FileScope"] | undefined) => {
    const key = folderKey(claims, scope);
    let files = folders.get(key);
    if (!files) {
      files = new Map();
      folders.set(key, files);
    }
    return files;
  };
  const existing = (files: Map<string, StoredFile>, path: string) => {
    const file = files.get(path);
    if (!file) throw httpFailure(404, `No file ${path}`);
    return file;
  };
  return {
    "novaos.files.write": ({ claims, args }): Schemas["FileInfo"] => {
      const request = args as Schemas["FilesWriteArguments"];
      const files = folder(claims, request.scope);
      const current = files.get(request.path);
      if (request.if_match !== undefined && current?.etag !== request.if_match) {
        throw httpFailure(412, `${request.path} is not at etag ${request.if_match}`);
      }
      const base64 = request.encoding === "base64";
      const bytes = Buffer.from(request.content, base64 ? "base64" : "utf8");
      const file: StoredFile = {
        bytes,
        contentType: request.content_type ?? (base64 ? "application/octet-stream" : "text/plain; charset=utf-8"),
        updatedAt: new Date().toISOString(),
        etag: createHash("sha256").update(bytes).digest("hex"),
      };
      files.set(request.path, file);
      return info(request.path, file);
    },
    "novaos.files.read": ({ claims, args }): Schemas["FilesReadResult"] => {
      const request = args as Schemas["FilesReadArguments"];
      const file = existing(folder(claims, request.scope), request.path);
      const encoding = request.encoding ?? "utf-8";
      let content: string;
      if (encoding === "base64") content = file.bytes.toString("base64");
      else {
        try {
          content = UTF8.decode(file.bytes);
        } catch {
          throw httpFailure(422, `${request.path} is not UTF-8: read it with encoding "base64"`);
        }
      }
      const { contentType: content_type, etag } = file;
      return { path: request.path, content, encoding, content_type, size_bytes: file.bytes.byteLength, etag };
    },
    "novaos.files.list": ({ claims, args }): Schemas["FilesListResult"] => {
      const request = args as Schemas["FilesListArguments"];
      const pageSize = request.page_size ?? 100;
      const paths = [...folder(claims, request.scope).entries()]
        .filter(([path]) => path.startsWith(request.prefix ?? "") && path > (request.page_token ?? ""))
        .sort(([a], [b]) => (a < b ? -1 : 1));
      const page = paths.slice(0, pageSize).map(([path, file]) => info(path, file));
      const last = page.at(-1);
      return { files: page, ...(paths.length > pageSize && last ? { next_page_token: last.path } : {}) };
    },
    "novaos.files.delete": ({ claims, args }): Schemas["FilesDeleteResult"] => {
      const request = args as Schemas["FilesDeleteArguments"];
      return { path: request.path, deleted: folder(claims, request.scope).delete(request.path) };
    },
  };
}
