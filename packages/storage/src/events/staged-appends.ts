// Appends made durable by the ingest log (ingest-log.ts) and committed to DuckDB in larger
// transactions: append() resolves once its rows are in the log; they are staged here and go to
// the store together when `flushMs` has passed or `flushRows` have gathered, with the log mark
// they reach committed in the same transaction. A commit that fails keeps its rows staged for
// the next try: they are acknowledged, and the log still holds them should the process die.
import type { EventRow } from "@lookout/schema";
import type { IngestLog, LogMark } from "./ingest-log.js";

export interface StagingOptions {
  /** How long the first staged row waits for company (default 100 ms). */
  flushMs?: number;
  /** Staged rows that start a commit at once (default 20 000). */
  flushRows?: number;
}

export class StagedAppends {
  readonly #log: IngestLog;
  readonly #commit: (rows: readonly EventRow[], mark: LogMark) => Promise<void>;
  readonly #flushMs: number;
  readonly #flushRows: number;
  #staged: (readonly EventRow[])[] = [];
  #rows = 0;
  #mark: LogMark | null = null;
  #timer: NodeJS.Timeout | null = null;
  /** The commit in progress, if any; commits run one at a time, in log order. */
  #committing: Promise<void> | null = null;

  constructor(log: IngestLog, commit: (rows: readonly EventRow[], mark: LogMark) => Promise<void>, opts: StagingOptions = {}) {
    this.#log = log;
    this.#commit = commit;
    this.#flushMs = opts.flushMs ?? 100;
    this.#flushRows = opts.flushRows ?? 20_000;
  }

  /** Resolves once `rows` are durable in the log. */
  async append(rows: readonly EventRow[]): Promise<void> {
    // Back-pressure: a store that has fallen far behind is caught up before taking more.
    if (this.#rows >= 4 * this.#flushRows) await this.flush();
    const mark = await this.#log.append(rows);
    // Log appends resolve in call order, so staged rows keep the log's order.
    this.#staged.push(rows);
    this.#rows += rows.length;
    this.#mark = mark;
    if (this.#rows >= this.#flushRows) this.#start();
    else this.#timer ??= setTimeout(() => this.#start(), this.#flushMs);
  }

  /** Resolves once every row staged before the call is committed (rejects if that failed). */
  async flush(): Promise<void> {
    for (;;) {
      if (this.#committing) await this.#committing;
      if (this.#rows === 0) return;
      this.#start();
    }
  }

  async close(): Promise<void> {
    await this.flush();
    await this.#log.close();
  }

  #start(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#committing || this.#rows === 0 || !this.#mark) return;
    const batches = this.#staged;
    const mark = this.#mark;
    const rows = batches.length === 1 ? (batches[0] as readonly EventRow[]) : batches.flat();
    this.#staged = [];
    this.#rows = 0;
    const run = this.#commit(rows, mark).then(
      () => {
        this.#committing = null;
        this.#log.release(mark).catch(() => undefined);
        if (this.#rows >= this.#flushRows) this.#start();
        else if (this.#rows > 0) this.#timer ??= setTimeout(() => this.#start(), this.#flushMs);
      },
      (err) => {
        this.#committing = null;
        this.#staged = [...batches, ...this.#staged];
        this.#rows += rows.length;
        this.#timer ??= setTimeout(() => this.#start(), this.#flushMs);
        throw err;
      },
    );
    // flush() callers see a failure; the timer's own commits retry quietly.
    run.catch(() => undefined);
    this.#committing = run;
  }
}
