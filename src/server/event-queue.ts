/**
 * Fan-out of a task's events to every stream watching it (spec §3.5.2: every
 * active stream gets the same events in the same order; closing one does not
 * affect the others). Publishing never blocks: each subscription buffers
 * what its consumer has not read yet, so a slow reader never stalls the skill
 * (a bounded queue with no reader would deadlock SendMessage); the skill's
 * task updater yields to the event loop instead while a stream lags (decision
 * S33), so sockets drain as the skill writes. What a subscription holds is
 * bounded by weight (the task's streams weigh events in estimated bytes,
 * stream-backlog.ts): a reader that falls further behind than the bound gets
 * what it holds dropped and ends with an error, after the events it had
 * already taken. There is no replay: a subscription sees only what is
 * published after it was made, which is why streams start from a task
 * snapshot.
 */

/** How much one subscription may hold unread. */
export interface BacklogLimit<E> {
  /** An event's weight (e.g. its estimated bytes); weighed once per publish, for every subscription. */
  readonly weigh: (event: E) => number;
  /** The weight a subscription may hold; an event beyond it ends the subscription (one event always fits). */
  readonly maxWeight: number;
  /** What a subscription that fell too far behind ends with. */
  readonly exceeded: () => Error;
}

export class EventQueue<E> {
  readonly #subscriptions = new Set<Subscription<E>>();
  readonly #limit: BacklogLimit<E> | undefined;
  #closed = false;

  /** Without a limit, a subscription holds whatever its reader has not taken. */
  constructor(limit?: BacklogLimit<E>) {
    this.#limit = limit;
  }

  /** Live subscriptions (for leak checks). */
  get subscriptionCount(): number {
    return this.#subscriptions.size;
  }

  /** Delivers to every current subscription; dropped silently once the queue is closed. */
  publish(event: E): void {
    if (this.#closed || this.#subscriptions.size === 0) return;
    const weight = this.#limit ? this.#limit.weigh(event) : 0;
    for (const subscription of this.#subscriptions) subscription.push(event, weight);
  }

  /** The most events any one subscription holds unread. */
  get backlog(): number {
    let most = 0;
    for (const subscription of this.#subscriptions) most = Math.max(most, subscription.buffered);
    return most;
  }

  /** A new subscription; on a closed queue it is already ended. */
  subscribe(): Subscription<E> {
    const subscription = new Subscription<E>(() => this.#subscriptions.delete(subscription), this.#limit);
    if (this.#closed) subscription.end();
    else this.#subscriptions.add(subscription);
    return subscription;
  }

  /** Ends every subscription after what it has buffered. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const subscription of [...this.#subscriptions]) subscription.end();
  }
}

/**
 * One consumer's view of a queue. Read it as an async iterable, or in
 * batches with `nextBatch()` (everything buffered at once, so a writer can
 * coalesce frames into one socket write). Leaving the loop early, or
 * `cancel()`, detaches it from the queue. Past its limit it drops what it
 * holds and detaches, and reading it throws the limit's error.
 */
export class Subscription<E> implements AsyncIterable<E> {
  #buffer: E[] = [];
  #weight = 0;
  #ended = false;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;
  readonly #detach: () => void;
  readonly #limit: BacklogLimit<E> | undefined;

  constructor(detach: () => void, limit?: BacklogLimit<E>) {
    this.#detach = detach;
    this.#limit = limit;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Events published to it and not read yet. */
  get buffered(): number {
    return this.#buffer.length;
  }

  /** @internal Called by the queue, with the event's weight. */
  push(event: E, weight: number): void {
    if (this.#ended) return;
    const limit = this.#limit;
    if (limit && this.#buffer.length > 0 && this.#weight + weight > limit.maxWeight) {
      this.#failure = limit.exceeded();
      this.cancel();
      return;
    }
    this.#buffer.push(event);
    this.#weight += weight;
    this.#notify();
  }

  /** Ends the subscription after the events already buffered. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#detach();
    this.#notify();
  }

  /** Ends it now, dropping what is buffered. */
  cancel(): void {
    this.#buffer = [];
    this.#weight = 0;
    this.end();
  }

  /**
   * Everything buffered (waiting for at least one event), or undefined once
   * ended and drained; throws the limit's error once it fell too far behind.
   */
  async nextBatch(): Promise<E[] | undefined> {
    while (this.#buffer.length === 0) {
      if (this.#failure) throw this.#failure;
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
    const batch = this.#buffer;
    this.#buffer = [];
    this.#weight = 0;
    return batch;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<E, void, undefined> {
    try {
      for (let batch = await this.nextBatch(); batch; batch = await this.nextBatch()) yield* batch;
    } finally {
      this.cancel();
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
