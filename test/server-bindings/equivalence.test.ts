/**
 * Spec §5.1: one AgentBuilder, three bindings, the same behaviour. Every
 * scenario of support/scenarios.ts runs over JSON-RPC, HTTP+JSON and gRPC
 * against one running agent (one handler, one store) and must give the same
 * outcome on all three, which is also checked against what the spec asks for.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { listen } from "../../src/node/index.js";
import type { AgentServer } from "../../src/node/serve-agent.js";
import { type BindingDriver, grpcDriver, httpJsonDriver, jsonRpcDriver } from "./support/binding-drivers.js";
import {
  buildAgent,
  expectEquivalent,
  REQUIRED_EXTENSION_SCENARIO,
  requiredExtension,
  SCENARIOS,
} from "./support/scenarios.js";

function driversFor(server: AgentServer): BindingDriver[] {
  return [jsonRpcDriver(server.url), httpJsonDriver(server.url), grpcDriver(server.grpcTarget!)];
}

describe("the three bindings behave alike (spec §5.1)", () => {
  let server: AgentServer;
  let drivers: BindingDriver[];
  beforeAll(async () => {
    server = await listen(buildAgent(), { port: 0, grpcPort: 0 });
    drivers = driversFor(server);
  });
  afterAll(async () => {
    for (const d of drivers) d.close();
    await server.close();
  });

  for (const scenario of SCENARIOS) {
    it(scenario.name, () => expectEquivalent(drivers, scenario));
  }
});

describe("the three bindings enforce required extensions alike", () => {
  let server: AgentServer;
  let drivers: BindingDriver[];
  beforeAll(async () => {
    server = await listen(buildAgent({ extensions: [requiredExtension()] }), { port: 0, grpcPort: 0 });
    drivers = driversFor(server);
  });
  afterAll(async () => {
    for (const d of drivers) d.close();
    await server.close();
  });

  it(REQUIRED_EXTENSION_SCENARIO.name, () => expectEquivalent(drivers, REQUIRED_EXTENSION_SCENARIO));
});
