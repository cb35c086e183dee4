// The DuckDB store's write queue: one write at a time on the writer connection (appends, profile
// upserts, deletions, migrations, checkpoints queue behind each other), and the store's closed
// flag, which refuses writes, rollups and day-rollup fills once set.
export class WriteQueue {
  #tail: Promise<unknown> = Promise.resolve();
  /** Set by close(), once the last writes are queued. */
  closed = false;

  /** Runs `fn` after every earlier write; failures do not block later writes. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error("event store is closed"));
    const run = this.#tail.then(fn, fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Settles once every write queued so far has (never rejects). */
  settled(): Promise<unknown> {
    return this.#tail;
  }
}
