/**
 * The HTTP tools of the local MCP Gateway (`novaos.http.get`, `request`):
 * real requests, to the hosts of the platform's allowlist only (`httpAllowedHosts`;
 * a host matches itself and its subdomains). Any other host, a redirect to one
 * included, is refused before anything is sent to it, as the cluster's
 * gateway refuses a domain the tenant's allowlist lacks: JSON-RPC -32040
 * `DOMAIN_NOT_ALLOWED`. The upstream's answer is a result whatever its status;
 * one that cannot be reached or does not answer within `timeout_s` is an
 * `isError` result (502, 504). A body is returned as UTF-8 when it is UTF-8,
 * else base64, cut at `max_bytes` (`truncated`). Redirects are followed, at
 * most five.
 */
import type { components } from "../../../gen/openapi/mcp-gateway.js";
import { hostMatchesSuffix, normalizeHostname, normalizeHostSuffix } from "../../runtime/host-suffix.js";
import { GatewayRpcCode } from "../../tools/gateway-rpc-error.js";
import { httpFailure, type ToolHandler, ToolRefusal } from "./tool-call.js";

type Schemas = components["schemas"];
type HttpRequest = Schemas["HttpRequestArguments"];

const MAX_REDIRECTS = 5;
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The first `max` bytes of a body, and whether there were more. */
async function readUpTo(body: ReadableStream<Uint8Array> | null, max: number): Promise<[Buffer, boolean]> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!body) return [Buffer.alloc(0), false];
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return [Buffer.concat(chunks), false];
      chunks.push(value);
      size += value.byteLength;
      if (size > max) return [Buffer.concat(chunks).subarray(0, max), true];
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

export function httpTools(allowedHosts: readonly string[]): Record<string, ToolHandler> {
  const allowlist = allowedHosts.map((host) => {
    const suffix = normalizeHostSuffix(host);
    if (suffix === undefined) throw new RangeError(`httpAllowedHosts: ${JSON.stringify(host)} names no host`);
    return suffix;
  });
  const checkHost = (url: URL, toolName: string) => {
    const host = normalizeHostname(url.hostname);
    if (allowlist.some((suffix) => hostMatchesSuffix(host, suffix))) return;
    throw new ToolRefusal(GatewayRpcCode.FORBIDDEN, `${host} is not in the tenant's domain allowlist`, {
      reason: "DOMAIN_NOT_ALLOWED",
      tool_name: toolName,
    });
  };
  const send = async (name: string, request: HttpRequest): Promise<Schemas["HttpResponseResult"]> => {
    const signal = AbortSignal.timeout((request.timeout_s ?? 30) * 1000);
    const body =
      request.body === undefined
        ? undefined
        : Buffer.from(request.body, request.body_encoding === "base64" ? "base64" : "utf8");
    let url = new URL(request.url);
    let method: string = request.method;
    for (let hop = 0; ; hop++) {
      checkHost(url, name);
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers: request.headers,
          ...(body !== undefined && method !== "GET" && method !== "HEAD" ? { body } : {}),
          redirect: "manual",
          signal,
        });
      } catch (error) {
        if (signal.aborted) throw httpFailure(504, `${url.host} did not answer within ${request.timeout_s ?? 30} s`);
        throw httpFailure(502, `${url.host} could not be reached: ${(error as Error).message}`);
      }
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location && hop < MAX_REDIRECTS) {
        await response.body?.cancel().catch(() => undefined);
        url = new URL(location, url);
        // As fetch does: a 303, or a POST answered 301/302, is followed with a GET.
        if (response.status === 303 || (method === "POST" && response.status < 303)) method = "GET";
        continue;
      }
      const [bytes, truncated] = await readUpTo(response.body, request.max_bytes ?? 1024 * 1024);
      let text: string | undefined;
      try {
        text = UTF8.decode(bytes);
      } catch {
        text = undefined;
      }
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: text ?? bytes.toString("base64"),
        body_encoding: text === undefined ? "base64" : "utf-8",
        truncated,
        url: url.href,
      };
    }
  };
  return {
    "novaos.http.get": ({ name, args }) => send(name, { ...(args as Schemas["HttpGetArguments"]), method: "GET" }),
    "novaos.http.request": ({ name, args }) => send(name, args as HttpRequest),
  };
}
