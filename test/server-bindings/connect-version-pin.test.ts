/**
 * Decision B26: the gRPC fast path encodes its status trailers with
 * connect-es's `setTrailerStatus`, which connect-es marks private (it may
 * change in any release). These fail as soon as the installed
 * @connectrpc/connect is not the version the decision was checked against,
 * so a bump is a deliberate re-check (the decision lists the steps), never a
 * side effect of an install.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { describe, expect, it } from "vitest";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { readRepoFile, section } from "../repo/support/repo-files.js";

const decision = section(readRepoFile("docs/decisions.md"), (heading) => heading.includes("setTrailerStatus")) ?? "";
const checkedVersion = /\*\*@connectrpc\/connect (\d+\.\d+\.\d+)\*\*/.exec(decision)?.[1];

/** The version of the package that `import "@connectrpc/connect"` loads here. */
function installedVersion(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version: string;
      };
      if (manifest.name === name) return manifest.version;
    } catch {
      // No package.json at this level: keep walking up.
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json for ${name}`);
    dir = parent;
  }
}

describe("the connect-es version the gRPC fast path was checked against (decision B26)", () => {
  it("is named in the decision", () => {
    expect(checkedVersion).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("is the installed @connectrpc/connect", () => {
    expect(installedVersion("@connectrpc/connect")).toBe(checkedVersion);
  });

  it("is what package.json pins, exactly, for every @connectrpc package", () => {
    const manifest = JSON.parse(readRepoFile("package.json")) as { dependencies: Record<string, string> };
    const pins = Object.entries(manifest.dependencies).filter(([name]) => name.startsWith("@connectrpc/"));
    expect(pins.map(([name]) => name).sort()).toEqual(["@connectrpc/connect", "@connectrpc/connect-node"]);
    for (const [, version] of pins) expect(version).toBe(checkedVersion);
  });

  it("still exports setTrailerStatus, writing the status, message and details trailers", () => {
    const details = [{ desc: ErrorInfoSchema, value: { reason: "TASK_NOT_FOUND", domain: "a2a-protocol.org" } }];
    const trailers = setTrailerStatus(
      new Headers(),
      new ConnectError("no such task", Code.NotFound, undefined, details),
    );
    expect(trailers.get("grpc-status")).toBe(String(Code.NotFound));
    expect(trailers.get("grpc-message")).toBe("no%20such%20task");
    expect(trailers.get("grpc-status-details-bin")).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(setTrailerStatus(new Headers(), undefined).get("grpc-status")).toBe("0");
  });
});
