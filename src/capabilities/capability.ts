/**
 * `Capability`: one named thing an agent can do, as Agent DNS records list
 * them (`AgentDNSRecord.getCapabilities()`) and the matchers compare them by
 * `name`. Registries write either a bare name or `{ name, description?,
 * metadata? }`; both read as a Capability.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { isJsonObject } from "../a2a/json-object.js";
import { NovaOSValidationError } from "../errors/novaos-errors.js";

/** The wire form of a capability. */
export interface CapabilityJson {
  name: string;
  description?: string;
  metadata?: JsonObject;
}

export class Capability {
  readonly name: string;
  readonly description: string | undefined;
  readonly metadata: JsonObject | undefined;

  constructor(name: string, options: { description?: string; metadata?: JsonObject } = {}) {
    this.name = name;
    this.description = options.description;
    this.metadata = options.metadata;
  }

  /**
   * A capability from its wire form: a non-empty name, or an object with a
   * non-empty string `name` (NovaOSValidationError otherwise); a description
   * or metadata of the wrong type is dropped.
   */
  static fromJson(json: unknown): Capability {
    if (typeof json === "string" && json !== "") return new Capability(json);
    if (!isJsonObject(json) || typeof json.name !== "string" || json.name === "") {
      throw new NovaOSValidationError("A capability needs a non-empty name", { field: "name" });
    }
    return new Capability(json.name, {
      ...(typeof json.description === "string" ? { description: json.description } : {}),
      ...(isJsonObject(json.metadata) ? { metadata: json.metadata } : {}),
    });
  }

  /** The wire form; absent fields are left out. */
  toJSON(): CapabilityJson {
    return {
      name: this.name,
      ...(this.description !== undefined ? { description: this.description } : {}),
      ...(this.metadata !== undefined ? { metadata: this.metadata } : {}),
    };
  }
}
