/**
 * The bench's load helper (bench/support/load.ts): a fixed number of calls
 * when asked, each timed, on the connections asked for.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpLoad } from "../../bench/support/load.js";

let server: http.Server;
let url: string;
let answered = 0;

beforeAll(async () => {
  server = http.createServer((_request, response) => {
    answered++;
    response.setHeader("content-type", "application/json");
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("httpLoad", () => {
  it("makes exactly the calls asked for on one connection, and times each", async () => {
    answered = 0;
    const result = await httpLoad({
      url,
      body: "{}",
      verify: (answer) => (answer as { ok?: boolean }).ok === true,
      connections: 1,
      warmupSeconds: 0,
      calls: 7,
    });
    expect(result.calls).toBe(7);
    expect(answered).toBe(8); // the verifying call, then the seven
    expect(result.p50).toBeGreaterThan(0);
    expect(result.p99 as number).toBeGreaterThanOrEqual(result.p50 as number);
  });

  it("refuses to measure a server whose answer does not verify", async () => {
    await expect(
      httpLoad({ url, body: "{}", verify: () => false, connections: 1, warmupSeconds: 0, calls: 1 }),
    ).rejects.toThrow(/unexpected answer/);
  });
});
