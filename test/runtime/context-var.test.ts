/** ContextVar scopes: isolation, and copy-back once a copied scope's work settles. */
import { describe, expect, it } from "vitest";
import { ContextVar, hasScope, LookupError, runInCopiedScope, runInNewScope } from "../../src/runtime/context-var.js";

describe("ContextVar", () => {
  it("answers the default, then the value set in the current scope", () => {
    const v = new ContextVar("v", { default: 1 });
    runInNewScope(() => {
      expect(v.get()).toBe(1);
      v.set(2);
      expect(v.get()).toBe(2);
      v.delete();
      expect(v.require()).toBe(1);
    });
    expect(() => new ContextVar<string>("none").require()).toThrow(LookupError);
  });

  it("isolates concurrent scopes from each other", async () => {
    const v = new ContextVar<string>("v");
    const seen = await Promise.all(
      ["a", "b"].map((name) =>
        runInNewScope(async () => {
          v.set(name);
          await Promise.resolve();
          return v.get();
        }),
      ),
    );
    expect(seen).toEqual(["a", "b"]);
    expect(hasScope()).toBe(false);
  });

  it("copies values set inside back onto the caller's scope once the work settles, even when it throws", async () => {
    const v = new ContextVar<string>("v");
    await runInNewScope(async () => {
      v.set("outer");
      const inner = runInCopiedScope(async () => {
        expect(v.get()).toBe("outer");
        v.set("inner");
        await Promise.resolve();
        // Not visible outside while the work runs.
        return "done";
      });
      expect(v.get()).toBe("outer");
      expect(await inner).toBe("done");
      expect(v.get()).toBe("inner");
      await runInCopiedScope(async () => {
        v.set("from a failure");
        throw new Error("boom");
      }).catch(() => undefined);
      expect(v.get()).toBe("from a failure");
    });
  });

  it("copies back when work the caller stopped waiting for settles later", async () => {
    const v = new ContextVar<string>("v");
    let finish: () => void = () => undefined;
    await runInNewScope(async () => {
      const work = runInCopiedScope(
        () =>
          new Promise<void>((resolve) => {
            v.set("late");
            finish = resolve;
          }),
      );
      expect(v.get()).toBeUndefined();
      finish();
      await work;
      expect(v.get()).toBe("late");
    });
  });
});
