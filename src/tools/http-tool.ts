/**
 * `ctx.tools.http`: outbound HTTP through the gateway, to the hosts the
 * tenant's domain allowlist admits (another host is refused, -32040). The
 * upstream's answer is a result whatever its status (a 404 upstream is not
 * an error). `get` only reads and is retried after a transient failure;
 * `request` may change something, so it is write-class and sent once.
 */
import { ToolBinding } from "./tool-binding.js";
import type { ToolCallOptions } from "./tool-caller.js";
import type { ToolArguments, ToolResult } from "./tool-catalog.js";

export type HttpResponseResult = ToolResult<"novaos.http.get">;
export type HttpMethod = ToolArguments<"novaos.http.request">["method"];

export class HTTPTool extends ToolBinding {
  /** `GET url`. */
  get(
    url: string,
    args: Omit<ToolArguments<"novaos.http.get">, "url"> = {},
    options?: ToolCallOptions,
  ): Promise<HttpResponseResult> {
    return this.caller.call("novaos.http.get", { ...args, url }, options);
  }

  /** Any method; a `body` only with POST, PUT, PATCH or DELETE. */
  request(
    method: HttpMethod,
    url: string,
    args: Omit<ToolArguments<"novaos.http.request">, "method" | "url"> = {},
    options?: ToolCallOptions,
  ): Promise<HttpResponseResult> {
    return this.caller.call("novaos.http.request", { ...args, method, url }, options);
  }
}
