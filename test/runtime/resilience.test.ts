import { describe, expect, it } from "vitest";
import {
  NovaOSConnectionError,
  NovaOSError,
  type NovaOSRateLimitError,
  NovaOSServerError,
} from "../../src/errors/novaos-errors.js";
import { errorForHttpStatus } from "../../src/http/http-status-errors.js";
import { CircuitOpenError, type ResilienceOptions, ResiliencePolicy } from "../../src/runtime/resilience.js";
import { ManualClock } from "./manual-clock.js";

// Every wait goes through a ManualClock: the tests await "the policy now sleeps N ms" and move time themselves.

const httpError = (status: number, retryAfter?: number) =>
  errorForHttpStatus(status, `HTTP ${status}`, { details: {}, retryAfter });

/** An attempt function that answers from a script (an Error is thrown) and records each call. */
function scripted(...outcomes: (unknown | Error)[]) {
  const calls: { at: number; signal: AbortSignal }[] = [];
  let clock: ManualClock | undefined;
  const fn = async (signal: AbortSignal) => {
    calls.push({ at: clock?.now() ?? 0, signal });
    const outcome = outcomes[Math.min(calls.length, outcomes.length) - 1];
    if (outcome instanceof Error) throw outcome;
    return outcome;
  };
  return { fn, calls, bind: (c: ManualClock) => (clock = c) };
}

function setup(options: ResilienceOptions = {}) {
  const clock = new ManualClock();
  const policy = new ResiliencePolicy({ clock, random: () => 0.5, timeoutMs: 0, ...options });
  return { clock, policy };
}

/** Lets the failing attempts of a call run, advancing through each wait; resolves to the waits seen. */
async function driveWaits(clock: ManualClock, count: number): Promise<number[]> {
  const waits: number[] = [];
  for (let i = 0; i < count; i++) {
    const ms = await clock.nextSleep();
    waits.push(ms);
    clock.advance(ms);
  }
  return waits;
}

describe("ResiliencePolicy retries", () => {
  it("makes 3 attempts, waiting 1 s then 2 s (with the jitter factor), and throws the last attempt's error", async () => {
    const { clock, policy } = setup();
    const errors = [httpError(503), httpError(503), httpError(503)];
    const script = scripted(...errors);
    script.bind(clock);
    const call = policy.execute(script.fn);
    expect(await driveWaits(clock, 2)).toEqual([750, 1500]);
    await expect(call).rejects.toBe(errors[2]);
    expect(script.calls.map((c) => c.at)).toEqual([0, 750, 2250]);
  });

  it("keeps every delay within [½, 1) of the doubling backoff", async () => {
    for (const [random, expected] of [
      [0, [500, 1000]],
      [0.999_999, [999.9995, 1999.999]],
    ] as const) {
      const { clock, policy } = setup({ random: () => random });
      const call = policy.execute(scripted(httpError(502)).fn);
      const waits = await driveWaits(clock, 2);
      for (const [i, ms] of waits.entries()) expect(ms).toBeCloseTo(expected[i] as number, 3);
      await expect(call).rejects.toBeInstanceOf(NovaOSServerError);
    }
  });

  it("answers the first success", async () => {
    const { clock, policy } = setup();
    const script = scripted(httpError(504), new NovaOSConnectionError("reset"), "done");
    const call = policy.execute(script.fn);
    await driveWaits(clock, 2);
    await expect(call).resolves.toBe("done");
    expect(script.calls).toHaveLength(3);
  });

  it("retries 429, 502, 503, 504 and a lost connection", async () => {
    for (const error of [httpError(429), httpError(502), httpError(503), httpError(504), new NovaOSConnectionError()]) {
      const { clock, policy } = setup();
      const script = scripted(error, "ok");
      const call = policy.execute(script.fn);
      await driveWaits(clock, 1);
      await expect(call).resolves.toBe("ok");
      expect(script.calls, error.message).toHaveLength(2);
    }
  });

  it("never retries another status, a non-SDK error, or a validation failure", async () => {
    for (const error of [...[400, 401, 403, 404, 409, 422, 500].map((s) => httpError(s)), new Error("bug")]) {
      const { clock, policy } = setup();
      const script = scripted(error, "never");
      await expect(policy.execute(script.fn)).rejects.toBe(error);
      expect(script.calls, error.message).toHaveLength(1);
      expect(clock.requested).toEqual([]);
    }
  });

  it("never retries a non-idempotent call", async () => {
    const { clock, policy } = setup();
    const error = httpError(503);
    const script = scripted(error, "never");
    await expect(policy.execute(script.fn, { idempotent: false })).rejects.toBe(error);
    expect(script.calls).toHaveLength(1);
    expect(clock.requested).toEqual([]);
  });

  it("always makes one attempt, even with maxAttempts 0", async () => {
    for (const maxAttempts of [0, 1]) {
      const { policy } = setup({ maxAttempts });
      const error = httpError(503);
      const script = scripted(error, "never");
      await expect(policy.execute(script.fn)).rejects.toBe(error);
      expect(script.calls).toHaveLength(1);
    }
  });
});

describe("ResiliencePolicy and Retry-After", () => {
  it("waits for a Retry-After longer than the backoff, and keeps the backoff when it is longer", async () => {
    const { clock, policy } = setup();
    const call = policy.execute(scripted(httpError(429, 5), httpError(503, 1), "ok").fn);
    expect(await driveWaits(clock, 2)).toEqual([5000, 1500]);
    await expect(call).resolves.toBe("ok");
  });

  it("gives up at once on a Retry-After over the cap (30 s by default), with the server's error", async () => {
    const { clock, policy } = setup();
    const error = httpError(429, 31);
    const script = scripted(error, "never");
    const thrown = await policy.execute(script.fn).catch((e: unknown) => e);
    expect(thrown).toBe(error);
    expect((thrown as NovaOSRateLimitError).retryAfter).toBe(31);
    expect(script.calls).toHaveLength(1);
    expect(clock.requested).toEqual([]);

    const patient = setup({ maxRetryAfterMs: 60_000 });
    const call = patient.policy.execute(scripted(httpError(503, 31), "ok").fn);
    expect(await driveWaits(patient.clock, 1)).toEqual([31_000]);
    await expect(call).resolves.toBe("ok");
  });
});

describe("ResiliencePolicy deadlines and aborts", () => {
  it("gives each attempt its own deadline and retries an attempt that passed it", async () => {
    const { clock, policy } = setup({ timeoutMs: 30_000 });
    const signals: AbortSignal[] = [];
    const call = policy.execute((signal) => {
      signals.push(signal);
      return new Promise<never>(() => {}); // never answers, never listens: the deadline must still end it
    });
    expect(await driveWaits(clock, 5)).toEqual([30_000, 750, 30_000, 1500, 30_000]);
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NovaOSConnectionError);
    expect((error as NovaOSError).details).toEqual({ timeoutMs: 30_000 });
    expect(signals.map((s) => s.reason)).toEqual([
      expect.any(NovaOSConnectionError),
      expect.any(NovaOSConnectionError),
      error,
    ]);
    expect(clock.pending).toBe(0);
  });

  it("takes a per-call deadline, and 0 for none", async () => {
    const { clock, policy } = setup({ timeoutMs: 30_000 });
    const call = policy.execute(() => new Promise<never>(() => {}), { timeoutMs: 5_000, idempotent: false });
    expect(await clock.nextSleep()).toBe(5_000);
    clock.advance(5_000);
    await expect(call).rejects.toBeInstanceOf(NovaOSConnectionError);
    void policy.execute(() => new Promise<never>(() => {}), { timeoutMs: 0 });
    await Promise.resolve();
    expect(clock.requested).toEqual([5_000]);
  });

  it("ends a call mid-wait with the caller's reason, releasing the wait", async () => {
    const { clock, policy } = setup();
    const controller = new AbortController();
    const script = scripted(httpError(503), "never");
    const call = policy.execute(script.fn, { signal: controller.signal });
    await clock.nextSleep();
    const reason = new Error("caller gave up");
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(script.calls).toHaveLength(1);
    expect(clock.pending).toBe(0);
  });

  it("ends a call mid-attempt with the caller's reason, and aborts the attempt's signal", async () => {
    const { policy } = setup();
    const controller = new AbortController();
    let attemptSignal: AbortSignal | undefined;
    const call = policy.execute(
      (signal) => {
        attemptSignal = signal;
        return new Promise<never>(() => {});
      },
      { signal: controller.signal },
    );
    await Promise.resolve();
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(attemptSignal?.reason).toBe(reason);
  });

  it("sends nothing when the signal has already aborted", async () => {
    const { policy } = setup();
    const script = scripted("never");
    const reason = new Error("already");
    await expect(policy.execute(script.fn, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(script.calls).toHaveLength(0);
  });
});

describe("ResiliencePolicy circuit breaker", () => {
  /** Fails `count` one-attempt calls with a transient error. */
  async function fail(policy: ResiliencePolicy, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      await expect(policy.execute(scripted(httpError(503)).fn)).rejects.toBeInstanceOf(NovaOSServerError);
    }
  }

  it("opens after 5 consecutive transient failures and refuses calls without sending them", async () => {
    const { policy } = setup({ maxAttempts: 1 });
    await fail(policy, 4);
    expect(policy.breakerState).toBe("closed");
    await fail(policy, 1);
    expect(policy.breakerState).toBe("open");
    for (const idempotent of [true, false]) {
      const script = scripted("never");
      const error = await policy.execute(script.fn, { idempotent, operation: "POST /x" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CircuitOpenError);
      expect(error).toBeInstanceOf(NovaOSConnectionError);
      expect((error as CircuitOpenError).retryAfter).toBe(30);
      expect((error as CircuitOpenError).message).toMatch(/POST \/x: not sent/);
      expect(script.calls).toHaveLength(0);
    }
  });

  it("counts only consecutive transient failures: a success resets the count, other errors leave it", async () => {
    const { policy } = setup({ maxAttempts: 1 });
    await fail(policy, 4);
    await policy.execute(scripted("ok").fn);
    await fail(policy, 4);
    expect(policy.breakerState).toBe("closed");
    await expect(policy.execute(scripted(httpError(404)).fn)).rejects.toBeInstanceOf(NovaOSError);
    expect(policy.breakerState).toBe("closed");
    await fail(policy, 1);
    expect(policy.breakerState).toBe("open");
  });

  it("lets one probe through after 30 s; calls that arrive meanwhile wait for it; a success closes", async () => {
    const { clock, policy } = setup({ maxAttempts: 1 });
    await fail(policy, 5);
    clock.advance(29_999);
    const early = await policy.execute(scripted("never").fn).catch((e: unknown) => e);
    expect((early as CircuitOpenError).retryAfter).toBe(1);
    clock.advance(1);

    let answerProbe: (value: string) => void = () => {};
    const probe = policy.execute(() => new Promise<string>((resolve) => (answerProbe = resolve)));
    await Promise.resolve();
    expect(policy.breakerState).toBe("half-open");
    const waiting = scripted("second");
    const second = policy.execute(waiting.fn);
    await Promise.resolve();
    expect(waiting.calls).toHaveLength(0);
    answerProbe("probe");
    await expect(probe).resolves.toBe("probe");
    await expect(second).resolves.toBe("second");
    expect(policy.breakerState).toBe("closed");
  });

  it("reopens for another 30 s when the probe fails", async () => {
    const { clock, policy } = setup({ maxAttempts: 1 });
    await fail(policy, 5);
    clock.advance(30_000);
    await fail(policy, 1);
    expect(policy.breakerState).toBe("open");
    clock.advance(29_000);
    const refused = await policy.execute(scripted("never").fn).catch((e: unknown) => e);
    expect((refused as CircuitOpenError).retryAfter).toBe(1);
    clock.advance(1_000);
    await expect(policy.execute(scripted("ok").fn)).resolves.toBe("ok");
    expect(policy.breakerState).toBe("closed");
  });

  it("counts every attempt, so a retry into a freshly opened breaker ends the call with CircuitOpenError", async () => {
    const { clock, policy } = setup();
    const first = policy.execute(scripted(httpError(503)).fn);
    await driveWaits(clock, 2);
    await expect(first).rejects.toBeInstanceOf(NovaOSServerError);
    const script = scripted(httpError(503));
    const second = policy.execute(script.fn);
    await driveWaits(clock, 2);
    await expect(second).rejects.toBeInstanceOf(CircuitOpenError);
    expect(script.calls).toHaveLength(2);
  });
});
