/**
 * The write-class rule (`requiresWriteHitl`), the connector name grammar,
 * and the catalog's flags as the code reads them, against the spec.
 */
import { describe, expect, it } from "vitest";
import { TOOL_FLAGS } from "../../src/tools/tool-catalog.js";
import { connectorToolName } from "../../src/tools/tool-names.js";
import { firstWord, requiresWriteHitl } from "../../src/tools/write-class.js";
import { loadSpec } from "../platform/contract-server.js";

describe("requiresWriteHitl", () => {
  it.each([
    ["novaos.notify.send", true],
    ["novaos.http.request", true],
    ["novaos.browser.interact", true],
    ["novaos.http.get", false],
    ["novaos.browser.extract", false],
    ["novaos.memory.write", false],
    ["novaos.files.delete", false],
    ["novaos.code.execute", false],
    ["novaos.agents.call", false],
    ["novaos.connector.clickup.create-task", true],
    ["novaos.connector.licensed.gmail.send_message", true],
    ["novaos.connector.ext.slack.postMessage", true],
    ["novaos.connector.clickup.get-task", false],
    ["novaos.connector.licensed.gmail.listMessages", false],
    ["novaos.connector.ext.drive.download_file", false],
    ["novaos.connector.hubspot.Search.contacts", false],
    ["novaos.connector.jira.getIssue", false],
    ["novaos.connector.jira.getaway", true],
    ["novaos.connector.jira.purge", true],
    ["novaos.weather.forecast", false],
    ["not a tool", false],
    ["", false],
  ])("%s → %s", (name, expected) => {
    expect(requiresWriteHitl(name)).toBe(expected);
  });

  it("reads the first word split on -, _, . and lower-to-upper changes", () => {
    expect(["get-task", "list_items", "search.v2", "fetchHTMLPage", "ShowAll", "x"].map(firstWord)).toEqual([
      "get",
      "list",
      "search",
      "fetch",
      "show",
      "x",
    ]);
  });
});

describe("connector tool names", () => {
  it("put the tier between the prefix and the connector, except for standard", () => {
    expect(connectorToolName("clickup", "create-task")).toBe("novaos.connector.clickup.create-task");
    expect(connectorToolName("gmail", "send", "licensed")).toBe("novaos.connector.licensed.gmail.send");
    expect(connectorToolName("drive", "list", "ext")).toBe("novaos.connector.ext.drive.list");
  });
});

describe("TOOL_FLAGS", () => {
  it("states each fixed tool's flags as openapi/mcp-gateway.yaml's ToolCatalog does", async () => {
    const api = await loadSpec("mcp-gateway.yaml");
    type Entry = { properties: Record<string, { const?: boolean }> };
    const schemas = (api.definition.components?.schemas ?? {}) as Record<string, { properties: Record<string, Entry> }>;
    const catalog = schemas.ToolCatalog?.properties ?? {};
    const fromSpec = Object.fromEntries(
      Object.entries(catalog)
        .filter(([name]) => name !== "novaos.connector.*")
        .map(([name, entry]) => [
          name,
          {
            idempotent: entry.properties.idempotent?.const,
            requiresWriteHitl: entry.properties.requires_write_hitl?.const,
          },
        ]),
    );
    expect(TOOL_FLAGS).toEqual(fromSpec);
  });
});
