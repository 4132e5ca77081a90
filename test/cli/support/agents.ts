/**
 * The agents the CLI tests talk to: our example agent on all three bindings,
 * and @a2a-js/sdk 1.3.0's server on its JSON-RPC, HTTP+JSON and gRPC bindings
 * (the interop suite's scripted agent). Both serve their card at the
 * well-known path of the URL given here.
 */
import { createExampleAgent } from "../../../examples/example-agent.js";
import { listen } from "../../../src/node/index.js";
import type { AgentServer } from "../../../src/node/serve-agent.js";
import { type A2AJsAgent, startA2AJsAgent } from "../../client/support/a2a-js-agent.js";

export interface TestAgent {
  /** Base URL: the card is at `${url}.well-known/agent-card.json`. */
  readonly url: string;
  close(): Promise<void>;
}

export interface ExampleAgent extends TestAgent {
  readonly server: AgentServer;
}

export async function startExampleAgent(sentenceDelayMs = 150): Promise<ExampleAgent> {
  const agent = createExampleAgent({ sentenceDelayMs });
  const server = await listen(agent, { port: 0, grpcPort: 0 });
  return { url: server.url, server, close: () => server.close() };
}

export interface PeerAgent extends TestAgent {
  readonly peer: A2AJsAgent;
}

export async function startPeerAgent(): Promise<PeerAgent> {
  const peer = await startA2AJsAgent();
  return { url: peer.jsonRpcUrl.replace(/jsonrpc$/, ""), peer, close: () => peer.close() };
}
