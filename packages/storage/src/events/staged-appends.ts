// Rows already durable in the ingest log (ingest-log.ts), on their way into DuckDB in larger
// transactions: they are staged here and go to the store together when `flushMs` has passed or
// `flushRows` have gathered, with the log mark they reach committed in the same transaction. A
// commit that fails keeps its rows staged for the next try: they are acknowledged, and the log
// still holds them should the process die. Once a mark is committed, the log files wholly before
// it are deleted.
import type { EventRow } from "@lookout/schema";
import { deleteBefore, type LogMark } from "./ingest-log.js";

export interface StagingOptions {
  /** How long the first staged row waits for company (default 100 ms). */
  flushMs?: number;
  /** Staged rows that start a commit at once (default 20 000). */
  flushRows?: number;
}

export class StagedAppends {
  readonly #logDir: string;
  readonly #commit: (rows: readonly EventRow[], mark: LogMark) => Promise<void>;
  readonly #flushMs: number;
  readonly #flushRows: number;
  #staged: (readonly EventRow[])[] = [];
  #rows = 0;
  #mark: LogMark | null = null;
  #timer: NodeJS.Timeout | null = null;
  /** The commit in progress, if any; commits run one at a time, in log order. */
  #committing: Promise<void> | null = null;

  constructor(logDir: string, commit: (rows: readonly EventRow[], mark: LogMark) => Promise<void>, opts: StagingOptions = {}) {
    this.#logDir = logDir;
    this.#commit = commit;
    this.#flushMs = opts.flushMs ?? 100;
    this.#flushRows = opts.flushRows ?? 20_000;
  }

  /** Rows staged and not yet committed. */
  get staged(): number {
    return this.#rows;
  }

  /** Takes rows the log holds up to `mark`; stage them in log order. */
  stage(rows: readonly EventRow[], mark: LogMark): void {
    this.#staged.push(rows);
    this.#rows += rows.length;
    this.#mark = mark;
    if (this.#rows >= this.#flushRows) this.#start();
    else this.#timer ??= setTimeout(() => this.#start(), this.#flushMs);
  }

  /** Resolves once every row staged before the call is committed (rejects if that failed). */
  async flush(): Promise<void> {
    for (;;) {
      // Another waiter may start the next commit before this one resumes, so look again after
      // every wait: a staged row is committed only once no commit is running and none is staged.
      if (this.#committing) {
        await this.#committing;
        continue;
      }
      if (this.#rows === 0) return;
      this.#start();
    }
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
        deleteBefore(this.#logDir, mark.gen).catch(() => undefined);
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
