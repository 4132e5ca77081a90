/**
 * What the agent accepts as a push-notification config and what it shows of
 * one. A webhook URL must be an absolute http(s) URL without user info, at
 * most `MAX_WEBHOOK_URL_LENGTH` characters (-32602 otherwise); it is not
 * resolved here: the sender's SSRF guard checks the address it dials, every
 * time. A config read back (Get, List, the Create answer) never shows its
 * credentials (spec §13.2: they are secrets the agent keeps): the scheme
 * stays, `credentials` is empty.
 */
import { clone } from "@bufbuild/protobuf";
import { type TaskPushNotificationConfig, TaskPushNotificationConfigSchema } from "../../../gen/a2a_pb.js";
import { invalidParams } from "../../a2a/protojson.js";

/** The longest webhook URL accepted, in characters (what browsers and proxies commonly take). */
export const MAX_WEBHOOK_URL_LENGTH = 2_048;

/** Throws -32602 unless `url` is an absolute http(s) URL without credentials, within the length bound. */
export function checkWebhookUrl(url: string, field: string): void {
  const parsed = url.length <= MAX_WEBHOOK_URL_LENGTH && URL.canParse(url) ? new URL(url) : undefined;
  const problem =
    url.length > MAX_WEBHOOK_URL_LENGTH
      ? `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters, got ${url.length}`
      : !parsed
        ? "must be an absolute URL"
        : parsed.protocol !== "https:" && parsed.protocol !== "http:"
          ? "must use http or https"
          : parsed.username || parsed.password
            ? "must not carry credentials (use authentication)"
            : undefined;
  if (problem) throw invalidParams([{ field, description: `${field} ${problem}` }]);
}

/** A copy of `config` as callers may read it back: its credentials left out. */
export function readableConfig(config: TaskPushNotificationConfig): TaskPushNotificationConfig {
  const copy = clone(TaskPushNotificationConfigSchema, config);
  if (copy.authentication) copy.authentication.credentials = "";
  return copy;
}
