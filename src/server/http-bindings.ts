/**
 * The HTTP bindings an agent serves, in routing order: the one place a
 * binding is added. Each answers the requests it routes and passes on the
 * rest; the first that answers wins. All of them serve the builder's one
 * request handler, so every binding sees the same tasks and stores. The
 * card's binding comes first, and its await also lets node parse the body
 * that came with a request's head before a protocol binding reads it (taken
 * then in one read, docs/decisions.md B411).
 */
import type { AgentBuilder, ServeOptions } from "./agent-builder.js";
import { AgentCardBinding } from "./agent-card.js";
import type { HttpBinding } from "./http-exchange.js";
import { HttpJsonBinding } from "./http-json/http-json-binding.js";
import { JsonRpcBinding } from "./jsonrpc-binding.js";

// biome-ignore lint/suspicious/noExplicitAny: any tools type serves alike.
export function agentHttpBindings(agent: AgentBuilder<any>, options: ServeOptions = {}): HttpBinding[] {
  const handler = agent.requestHandler();
  const bindingOptions = {
    maxBodyBytes: agent.maxBodyBytes,
    maxRequestValues: agent.maxRequestValues,
    logger: agent.logger,
  };
  const protocols: HttpBinding[] = [
    new JsonRpcBinding(handler, bindingOptions),
    new HttpJsonBinding(handler, bindingOptions),
  ];
  if (options.agentCard === false) return protocols;
  return [
    new AgentCardBinding(
      (card) => agent.toAgentCard(card),
      options.agentCard ?? {},
      (url) => protocols.flatMap((b) => (b.protocolBinding ? [{ url, protocolBinding: b.protocolBinding }] : [])),
      { publicUrl: options.publicUrl, trustHostHeader: options.trustHostHeader },
      agent.logger,
    ),
    ...protocols,
  ];
}
