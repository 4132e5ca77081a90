/**
 * `@novaos/client-sdk/node`: serving and calling on Node. `listen(agent)`
 * serves an agent over all three bindings; `nodeHandler(agent)` mounts its
 * HTTP bindings on a `node:http` server (or Express); `createNodeFetch()`
 * gives a client connections of its own; the SSRF-guarded fetch, dispatcher
 * and lookup re-check every connection a discovered URL makes.
 */
export {
  createGuardedDispatcher,
  createGuardedFetch,
  createGuardedLookup,
  type GuardedDispatcherOptions,
  type GuardedFetch,
} from "../http/guarded-fetch.js";
export { createOwnedFetch as createNodeFetch, type OwnedFetch as NodeFetch } from "../http/owned-fetch.js";
export { type FastifyScope, fastifyAgentPlugin, type MountOptions, mountAgent } from "./mount.js";
export { createNodeListener, type NodeListenerOptions, type NodeRequestListener } from "./node-adapter.js";
export { nodeHandler } from "./node-handler.js";
export { type AgentServer, type ListenOptions, listen } from "./serve-agent.js";
