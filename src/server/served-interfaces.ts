/**
 * The interfaces an agent is being served on right now, per agent: whoever
 * serves an agent (`listen()` from `@novaos/client-sdk/node`) records them
 * here, and `toAgentCard()` without explicit interfaces names them.
 */
import type { AgentInterface } from "../../gen/a2a_pb.js";

/** Something serving an agent: the interfaces it serves. */
export interface ServedInterfaces {
  readonly interfaces: readonly AgentInterface[];
}

const servedByAgent = new WeakMap<object, Set<ServedInterfaces>>();

/** Records `server` as serving `agent` until the returned function is called. */
export function recordServed(agent: object, server: ServedInterfaces): () => void {
  const served = servedByAgent.get(agent) ?? new Set<ServedInterfaces>();
  served.add(server);
  servedByAgent.set(agent, served);
  return () => servedByAgent.get(agent)?.delete(server);
}

/** The interfaces of every server `agent` is served by (none before one starts). */
export function servedInterfaces(agent: object): AgentInterface[] {
  return [...(servedByAgent.get(agent) ?? [])].flatMap((server) => [...server.interfaces]);
}
