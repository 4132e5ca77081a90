/**
 * The MCP Gateway's session, as every caller of the gateway keeps it (the
 * platform tools of a run, `MCPClient`): the `Mcp-Session-Id` of the last 200
 * answer is sent with the next call. A 404 whose body is `{error:
 * "session_expired"}` says the session sent is unknown or idle and that
 * nothing ran, so the same request may go once more without it
 * (openapi/mcp-gateway.yaml, decision O112).
 */

/** The header carrying the gateway's session id, both ways. */
export const MCP_SESSION_ID_HEADER = "Mcp-Session-Id";

/** The session ids the gateway may send: 1–128 visible ASCII characters. */
const SESSION_ID = /^[\x21-\x7E]{1,128}$/;

/** One caller's MCP session: the id of the gateway's last answer, sent with the next call. */
export interface McpSession {
  id: string | undefined;
}

/** Keeps the session id a 200 answer carries, when it is one the gateway may send. */
export function keepSession(session: McpSession, response: Response): void {
  const id = response.headers.get(MCP_SESSION_ID_HEADER);
  if (id !== null && SESSION_ID.test(id)) session.id = id;
}

/** Whether an answer (its status and parsed error body) says the session sent has expired, and nothing ran. */
export function isSessionExpiredAnswer(status: number, body: unknown): boolean {
  return status === 404 && (body as { error?: unknown } | null)?.error === "session_expired";
}

/**
 * Forgets the session `sent` after the gateway said it expired, unless a
 * later answer already replaced it.
 */
export function forgetSession(session: McpSession, sent: string): void {
  if (session.id === sent) session.id = undefined;
}
