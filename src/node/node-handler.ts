/**
 * `nodeHandler(agent)`: the agent's HTTP bindings as a `node:http` request
 * listener — a server's handler, and Express or Connect middleware as is.
 */
import type { AgentBuilder, ServeOptions } from "../server/agent-builder.js";
import { createNodeListener, type NodeRequestListener } from "./node-adapter.js";

// biome-ignore lint/suspicious/noExplicitAny: any tools type serves alike.
export function nodeHandler(agent: AgentBuilder<any>, options: ServeOptions = {}): NodeRequestListener {
  const bindings = agent.httpBindings(options);
  return createNodeListener(() => bindings, { logger: agent.logger });
}
