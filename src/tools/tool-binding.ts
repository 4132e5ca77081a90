/**
 * The base of every tool class: a tool speaks through one `ToolCaller`, its
 * run's governed call. `ToolBindings` gives all its tools the same caller;
 * a tool built on its own gets a caller of its own from the options.
 */
import { ToolCaller, type ToolCallerOptions } from "./tool-caller.js";

export abstract class ToolBinding {
  protected readonly caller: ToolCaller;

  constructor(caller: ToolCaller | ToolCallerOptions = {}) {
    this.caller = caller instanceof ToolCaller ? caller : new ToolCaller(caller);
  }
}
