/**
 * Fan-out of a task's events to every stream watching it (spec §3.5.2: every
 * active stream gets the same events in the same order; closing one does not
 * affect the others). Publishing never blocks: each subscription buffers
 * what its consumer has not read yet, so a slow reader never stalls the skill
 * (a bounded queue with no reader would deadlock SendMessage); the skill's
 * task updater yields to the event loop instead while a stream lags (decision
 * S33), so sockets drain as the skill writes. There is no
 * replay: a subscription sees only what is published after it was made,
 * which is why streams start from a task snapshot.
 */

export class EventQueue<E> {
  readonly #subscriptions = new Set<Subscription<E>>();
  #closed = false;

  /** Live subscriptions (for leak checks). */
  get subscriptionCount(): number {
    return this.#subscriptions.size;
  }

  /** Delivers to every current subscription; dropped silently once the queue is closed. */
  publish(event: E): void {
    if (this.#closed) return;
    for (const subscription of this.#subscriptions) subscription.push(event);
  }

  /** The most events any one subscription holds unread. */
  get backlog(): number {
    let most = 0;
    for (const subscription of this.#subscriptions) most = Math.max(most, subscription.buffered);
    return most;
  }

  /** A new subscription; on a closed queue it is already ended. */
  subscribe(): Subscription<E> {
    const subscription = new Subscription<E>(() => this.#subscriptions.delete(subscription));
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
 * `cancel()`, detaches it from the queue.
 */
export class Subscription<E> implements AsyncIterable<E> {
  #buffer: E[] = [];
  #ended = false;
  #wake: (() => void) | undefined;
  readonly #detach: () => void;

  constructor(detach: () => void) {
    this.#detach = detach;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Events published to it and not read yet. */
  get buffered(): number {
    return this.#buffer.length;
  }

  /** @internal Called by the queue. */
  push(event: E): void {
    if (this.#ended) return;
    this.#buffer.push(event);
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
    this.end();
  }

  /** Everything buffered (waiting for at least one event), or undefined once ended and drained. */
  async nextBatch(): Promise<E[] | undefined> {
    while (this.#buffer.length === 0) {
      if (this.#ended) return undefined;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
    const batch = this.#buffer;
    this.#buffer = [];
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
