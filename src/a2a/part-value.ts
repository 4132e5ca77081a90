/**
 * One `Part` from its content and options: the object `create(PartSchema, …)`
 * would make, built as the plain object it is, so the parts need no
 * descriptor (parts.ts and data-part.ts build theirs with it).
 */
import type { Part } from "../../gen/a2a_pb.js";
import type { FilePartOptions } from "./parts.js";

export function part(content: Part["content"], options: FilePartOptions): Part {
  return {
    $typeName: "lf.a2a.v1.Part",
    content,
    ...(options.metadata ? { metadata: options.metadata } : {}),
    filename: options.filename ?? "",
    mediaType: options.mediaType ?? "",
  };
}
