// Sharing the event store between accounts: at most `perKey` calls of one key (an account) run at
// once, the rest wait in call order. The store's readers are few (DuckDB: 4 connections) and
// a query holds one until it ends, so without this a few costly queries of one account (regex
// filters over a long range) took every reader and everyone else's dashboard waited behind them.
// With perKey below the readers, one account's heavy queries queue behind each other, and a
// reader frees up for other accounts as soon as one of them ends. The server's one instance is
// behind fair-reads.ts, through which every service reads.

/** A key already has `maxWaiting` calls waiting: the caller should come back later. */
export class QueueFullError extends Error {
  readonly code = "queue_full";
}

export class FairQueue {
  readonly #perKey: number;
  readonly #maxWaiting: number;
  readonly #running = new Map<string, number>();
  readonly #waiting = new Map<string, (() => void)[]>();

  /** `maxWaiting` bounds one key's queue, so that one account cannot pile up work and memory. */
  constructor(perKey: number, maxWaiting = Number.POSITIVE_INFINITY) {
    if (!(perKey >= 1)) throw new Error("perKey must be at least 1");
    this.#perKey = Math.floor(perKey);
    this.#maxWaiting = maxWaiting;
  }

  /** Runs `fn` once fewer than perKey calls of `key` are running; calls of a key start in order. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const running = this.#running.get(key) ?? 0;
    if (running < this.#perKey && !this.#waiting.has(key)) this.#running.set(key, running + 1);
    else {
      if ((this.#waiting.get(key)?.length ?? 0) >= this.#maxWaiting)
        throw new QueueFullError(`too many calls waiting for ${key}`);
      // #release hands its slot over: the count stays as it is.
      await new Promise<void>((resolve) => {
        const queue = this.#waiting.get(key);
        if (queue) queue.push(resolve);
        else this.#waiting.set(key, [resolve]);
      });
    }
    try {
      return await fn();
    } finally {
      this.#release(key);
    }
  }

  /** Calls of `key` running and waiting (for tests and metrics). */
  load(key: string): { running: number; waiting: number } {
    return { running: this.#running.get(key) ?? 0, waiting: this.#waiting.get(key)?.length ?? 0 };
  }

  #release(key: string): void {
    const queue = this.#waiting.get(key);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.#waiting.delete(key);
    if (next) {
      next();
      return;
    }
    const running = (this.#running.get(key) ?? 1) - 1;
    if (running > 0) this.#running.set(key, running);
    else this.#running.delete(key);
  }
}
