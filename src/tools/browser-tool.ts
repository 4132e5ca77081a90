/**
 * `ctx.tools.browser`: a headless browser, one page load per call (no
 * session survives a call). `extract` and `screenshot` only read, and are
 * retried after a transient failure; `interact` clicks and types, so it is
 * write-class (it may need the user's confirmation) and sent once.
 */
import { ToolBinding } from "./tool-binding.js";
import type { ToolCallOptions } from "./tool-caller.js";
import type { ToolArguments, ToolResult } from "./tool-catalog.js";

export type BrowserStep = ToolArguments<"novaos.browser.interact">["steps"][number];

export class BrowserTool extends ToolBinding {
  /** The page's content (all of it, or what `selector` matches), as markdown by default. */
  extract(
    url: string,
    args: Omit<ToolArguments<"novaos.browser.extract">, "url"> = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.browser.extract">> {
    return this.caller.call("novaos.browser.extract", { ...args, url }, options);
  }

  /** A PNG (or JPEG) of the page, base64 in `data`. */
  screenshot(
    url: string,
    args: Omit<ToolArguments<"novaos.browser.screenshot">, "url"> = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.browser.screenshot">> {
    return this.caller.call("novaos.browser.screenshot", { ...args, url }, options);
  }

  /** Loads the page, runs the steps in order, and answers the page after them. */
  interact(
    url: string,
    steps: readonly BrowserStep[],
    args: Omit<ToolArguments<"novaos.browser.interact">, "url" | "steps"> = {},
    options?: ToolCallOptions,
  ): Promise<ToolResult<"novaos.browser.interact">> {
    return this.caller.call("novaos.browser.interact", { ...args, url, steps: [...steps] }, options);
  }
}
