/**
 * How the local platform calls an agent's pod, for a run the gateway
 * started and for a call of the agents tool alike: an A2A `Client` with the
 * headers the cluster's auth-proxy sidecar hands a pod (`X-NovaOS-*`, the
 * run token as the bearer and as `X-NovaOS-Execution-Token`), and the user's
 * secrets sealed to the pod's key for this one run (user-context/v1).
 *
 * A secret is sealed only to an agent whose card declares the
 * `novaos.platform/extensions/user-context/v1` extension with the suite the
 * platform seals with, and whose pod key the platform was given at
 * registration (the cluster's control plane holds each pod's public key;
 * the card never carries it). Each envelope is bound to the run's tenant,
 * the agent's instance, the run and the secret's name, so it opens in that
 * run only.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { A2A_EXTENSIONS_HEADER } from "../a2a/extensions-header.js";
import { Client } from "../client/index.js";
import { platformContextMetadata } from "../messages/platform-context.js";
import { NOVAOS_CONTEXT_HEADERS } from "../runtime/execution-context.js";
import { SEALED_ENVELOPE_SUITE, sealEnvelope } from "../security/sealed-envelope.js";
import { USER_CONTEXT_EXTENSION_URI } from "../security/user-context-extension.js";
import type { RegisteredAgent } from "./agent-registry.js";

export interface PodCall {
  readonly userId: string;
  readonly tenantId: string;
  readonly runId: string;
  readonly token: string;
  /** Service-account headers delivered to the pod. */
  readonly customHeaders?: Readonly<Record<string, string>> | undefined;
  /** The user's secrets, sealed to the pod when it can open them. */
  readonly secrets?: ReadonlyMap<string, string> | undefined;
  /** Whether the platform holds this run's write-class tool calls for confirmation (`ctx.mcpWriteHitlActive`). */
  readonly writeConfirmation?: boolean | undefined;
}

/** A pod and what to send it with each message of this call. */
export interface PodConnection {
  readonly client: Client;
  /** Request metadata: the sealed secrets and the platform context, when there is any. */
  readonly metadata: JsonObject | undefined;
}

/** Whether the agent's card says its pod opens user-context/v1 envelopes of the platform's suite. */
function opensSealedSecrets(agent: RegisteredAgent): boolean {
  const declared = agent.card.capabilities?.extensions.find((e) => e.uri === USER_CONTEXT_EXTENSION_URI);
  const suites = declared?.params?.suites;
  return Array.isArray(suites) && suites.includes(SEALED_ENVELOPE_SUITE);
}

/** The user-context/v1 metadata of this call, or undefined when nothing is to be delivered. */
function sealedUserContext(agent: RegisteredAgent, call: PodCall): JsonObject | undefined {
  if (!call.secrets || call.secrets.size === 0 || !agent.podKey || !opensSealedSecrets(agent)) return undefined;
  const secrets: JsonObject = {};
  for (const [name, value] of call.secrets) {
    secrets[name] = sealEnvelope(value, agent.podKey, {
      tenantId: call.tenantId,
      instanceId: agent.instanceId,
      runId: call.runId,
      secretName: name,
    });
  }
  return { [USER_CONTEXT_EXTENSION_URI]: { secrets } };
}

/** A client for `agent` that calls it as the cluster calls a pod for `call`. Close it after use. */
export function connectToPod(agent: RegisteredAgent, call: PodCall): PodConnection {
  const sealed = sealedUserContext(agent, call);
  // The platform context says only what the pod cannot learn otherwise; the run's ids travel in the headers.
  const context = call.writeConfirmation ? platformContextMetadata({ mcpWriteHitlActive: true }) : undefined;
  const metadata = sealed || context ? { ...sealed, ...context } : undefined;
  const client = new Client({
    baseUrl: agent.url,
    agentCard: agent.card,
    allowedHosts: [],
    headers: {
      ...call.customHeaders,
      Authorization: `Bearer ${call.token}`,
      [NOVAOS_CONTEXT_HEADERS.userId]: call.userId,
      [NOVAOS_CONTEXT_HEADERS.tenantId]: call.tenantId,
      [NOVAOS_CONTEXT_HEADERS.runId]: call.runId,
      [NOVAOS_CONTEXT_HEADERS.agentId]: agent.agentId,
      [NOVAOS_CONTEXT_HEADERS.instanceId]: agent.instanceId,
      [NOVAOS_CONTEXT_HEADERS.executionToken]: call.token,
      ...(sealed ? { [A2A_EXTENSIONS_HEADER]: USER_CONTEXT_EXTENSION_URI } : {}),
    },
  });
  return { client, metadata };
}
