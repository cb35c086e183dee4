// Group commit for the collector: requests wait while their rows join a shared batch, the batch
// is written in one durable transaction, and only then are their 202s sent. While one write is in
// flight the next batch gathers, so throughput grows with load instead of one commit per event.
// The queue is bounded: past `maxPending` rows it refuses at once (the route answers 503 with
// Retry-After) rather than letting memory grow.

export class QueueFullError extends Error {
  constructor(readonly retryAfterMs: number) {
    super("the ingest queue is full");
  }
}

export class QueueClosedError extends Error {
  constructor() {
    super("the ingest queue is closed");
  }
}

/**
 * Rows that will be written together, and the one promise all their pushers wait on: batches are
 * formed as rows arrive (by the same greedy rule as at write time), so a push costs no promise of
 * its own.
 */
interface Batch<T> {
  rows: T[];
  done: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

function newBatch<T>(): Batch<T> {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { rows: [], done, resolve, reject };
}

export interface GroupCommitOptions {
  /** Most rows written in one transaction. */
  maxBatch?: number;
  /** How long the first row of an idle queue waits for company before the write starts. */
  maxDelayMs?: number;
  /** Rows waiting or in flight beyond which new pushes are refused. */
  maxPending?: number;
}

export class GroupCommitQueue<T> {
  readonly #write: (batch: T[]) => Promise<void>;
  readonly #maxBatch: number;
  readonly #maxDelayMs: number;
  readonly #maxPending: number;
  /** Batches waiting for their write, oldest first; only the last one still takes rows. */
  #queue: Batch<T>[] = [];
  #queued = 0;
  #pending = 0;
  #writing: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(write: (batch: T[]) => Promise<void>, opts: GroupCommitOptions = {}) {
    this.#write = write;
    this.#maxBatch = opts.maxBatch ?? 5000;
    this.#maxDelayMs = opts.maxDelayMs ?? 4;
    this.#maxPending = opts.maxPending ?? 200_000;
  }

  get pending(): number {
    return this.#pending;
  }

  /** Resolves once `rows` are durable; rejects if their batch failed (nothing of it was stored). */
  push(rows: T[]): Promise<void> {
    if (this.#closed) return Promise.reject(new QueueClosedError());
    if (rows.length === 0) return Promise.resolve();
    if (this.#pending + rows.length > this.#maxPending) return Promise.reject(new QueueFullError(1000));
    let batch = this.#queue[this.#queue.length - 1];
    // A push is never split: one that does not fit starts the next batch (an oversized one alone).
    if (batch === undefined || batch.rows.length + rows.length > this.#maxBatch) {
      batch = newBatch();
      this.#queue.push(batch);
    }
    for (const row of rows) batch.rows.push(row);
    this.#queued += rows.length;
    this.#pending += rows.length;
    this.#schedule();
    return batch.done;
  }

  /** Stops accepting rows and resolves when everything accepted so far is written. */
  async drain(): Promise<void> {
    this.#closed = true;
    while (this.#queue.length > 0 || this.#writing) {
      if (this.#timer) {
        clearTimeout(this.#timer);
        this.#timer = null;
      }
      if (!this.#writing) this.#flush();
      await this.#writing;
    }
  }

  #schedule(): void {
    if (this.#writing || this.#timer) return;
    if (this.#queued >= this.#maxBatch || this.#maxDelayMs === 0) {
      this.#flush();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#flush();
    }, this.#maxDelayMs);
  }

  #flush(): void {
    if (this.#writing) return;
    const batch = this.#queue.shift();
    if (batch === undefined) return;
    const count = batch.rows.length;
    this.#queued -= count;
    const settle = (err?: unknown) => {
      // Bookkeeping first, so a caller resuming after its 202 already sees the room it freed.
      this.#pending -= count;
      this.#writing = null;
      if (err === undefined) batch.resolve();
      else batch.reject(err);
      // Rows that gathered during the write go out at once: they have already waited.
      if (this.#queue.length > 0) this.#flush();
    };
    this.#writing = this.#write(batch.rows).then(
      () => settle(),
      (err) => settle(err ?? new Error("write failed")),
    );
  }
}
