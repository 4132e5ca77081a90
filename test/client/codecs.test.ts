/**
 * The calling side's codecs on the wire: requests and replies go through the
 * generated codecs, and what they do not handle takes protobuf-es's
 * reflection, which the client loads with `import()` on first need
 * (src/client/codecs.ts), with the results the reflective path always gave.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../../src/client/client.js";
import { readReplyFast } from "../../src/client/codecs.js";
import { type RecordedRequest, sendJson, startHttpServer, type TestHttpServer } from "./support/http-server.js";

const result = (req: RecordedRequest, value: unknown) => ({
  jsonrpc: "2.0",
  id: JSON.parse(req.body).id,
  result: value,
});

let server: TestHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("the calling side's codecs", () => {
  it("reads a reply its generated reader bails on (an int32 as a string) through protobuf-es's reflection", async () => {
    const page = { tasks: [], nextPageToken: "", pageSize: "2", totalSize: "7" };
    // The generated reader leaves string-encoded numbers to the reflective path.
    expect(readReplyFast("ListTasks", page)).toBeUndefined();
    server = await startHttpServer((req, res) => sendJson(res, 200, result(req, page)));
    await using client = new Client({ baseUrl: server.url });
    const reply = await client.listTasks();
    expect([reply.$typeName, reply.pageSize, reply.totalSize, reply.tasks]).toEqual([
      "lf.a2a.v1.ListTasksResponse",
      2,
      7,
      [],
    ]);
  });

  it("builds a request given as fields (not a generated message) with protobuf-es's create", async () => {
    server = await startHttpServer((req, res) =>
      sendJson(res, 200, result(req, { taskId: "t1", id: "p1", url: "https://hooks.example/a2a" })),
    );
    await using client = new Client({ baseUrl: server.url });
    const config = await client.createTaskPushNotificationConfig({
      taskId: "t1",
      url: "https://hooks.example/a2a",
      authentication: { scheme: "Bearer", credentials: "s3cret" },
    });
    expect(config.id).toBe("p1");
    const params = JSON.parse((server.requests[0] as RecordedRequest).body).params;
    expect(params).toEqual({
      taskId: "t1",
      url: "https://hooks.example/a2a",
      authentication: { scheme: "Bearer", credentials: "s3cret" },
    });
  });
});
