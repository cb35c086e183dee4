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

interface Entry<T> {
  rows: T[];
  resolve: () => void;
  reject: (err: unknown) => void;
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
  #queue: Entry<T>[] = [];
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
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ rows, resolve, reject });
      this.#queued += rows.length;
      this.#pending += rows.length;
      this.#schedule();
    });
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
    if (this.#writing || this.#queue.length === 0) return;
    const taken: Entry<T>[] = [];
    let count = 0;
    while (this.#queue.length > 0 && (count === 0 || count + (this.#queue[0]?.rows.length ?? 0) <= this.#maxBatch)) {
      const e = this.#queue.shift()!;
      taken.push(e);
      count += e.rows.length;
    }
    this.#queued -= count;
    const batch = taken.length === 1 ? taken[0]!.rows : taken.flatMap((e) => e.rows);
    const settle = (err?: unknown) => {
      // Bookkeeping first, so a caller resuming after its 202 already sees the room it freed.
      this.#pending -= count;
      this.#writing = null;
      for (const e of taken) {
        if (err === undefined) e.resolve();
        else e.reject(err);
      }
      // Rows that gathered during the write go out at once: they have already waited.
      if (this.#queue.length > 0) this.#flush();
    };
    this.#writing = this.#write(batch).then(
      () => settle(),
      (err) => settle(err ?? new Error("write failed")),
    );
  }
}
