/**
 * Reading a card's body: only a body over the cap is an unusable card; a
 * body that breaks off midway is a failed connection (retryable), as a
 * request that got no answer is.
 */
import { describe, expect, it } from "vitest";
import { fetchAgentCard } from "../../src/discovery/fetch-agent-card.js";
import { NovaOSConnectionError, NovaOSValidationError } from "../../src/errors/novaos-errors.js";
import { startHttpServer } from "./local-network.js";
import { cleanupAfterEach, rejection } from "./support.js";

const cleanup = cleanupAfterEach();

describe("reading the card body", () => {
  it("calls a body that breaks off a failed connection, not an oversized card", async () => {
    const server = await startHttpServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "4096" });
      // Half a card, then the connection drops.
      res.write('{"name":"half', () => res.socket?.destroy());
    });
    cleanup.push(() => server.close());
    const error = await rejection(fetchAgentCard(`http://127.0.0.1:${server.port}`, { maxCardBytes: 1024 }));
    expect(error).toBeInstanceOf(NovaOSConnectionError);
    expect(error).not.toBeInstanceOf(NovaOSValidationError);
  });
});
