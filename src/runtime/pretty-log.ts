/**
 * The log line for a person at a terminal (`NOVAOS_LOG_FORMAT=pretty`):
 * `14:00:00.123 INFO  message key=value …`, one line per call, the same
 * fields as the JSON line (already masked) minus the timestamp's date. Never
 * for the platform's log pipeline, which reads the JSON form.
 */
import type { DestinationStream } from "pino";

const HIDDEN = new Set(["level", "timestamp", "message"]);

/** One JSON log line, as text for a person. A line that is not JSON passes through as it is. */
export function prettyLine(line: string): string {
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof fields.timestamp === "string" ? fields.timestamp.slice(11, 23) : "";
  const level = String(fields.level ?? "")
    .toUpperCase()
    .padEnd(5);
  const rest = Object.entries(fields)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  return `${[time, level, String(fields.message ?? ""), ...rest].filter((s) => s !== "").join(" ")}\n`;
}

/** A pino destination that writes each line through `prettyLine`. */
export function prettyDestination(write: (text: string) => void): DestinationStream {
  return { write: (line: string) => write(line.split("\n").filter(Boolean).map(prettyLine).join("")) };
}
