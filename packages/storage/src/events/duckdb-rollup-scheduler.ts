// The DuckDB store's rollup scheduling: how far appends have committed and how far they are rolled
// up, when the next rollup runs (right inside each append when the delay is 0, else on a timer
// after appends, longer under load), and the one-at-a-time runner on the rollups' own connection
// that rollups and day-rollup fills share. Rollups write only the rollup tables and appends only
// `events`, so the two never conflict, and a rollup never holds up the collector's appends.
import type { DuckDBConnection } from "@duckdb/node-api";
import { DayRollups, type MarkListener } from "./duckdb-day-rollup.js";
import { transaction as inTransaction, rollupBatches } from "./duckdb-rollup.js";
import type { WriteQueue } from "./duckdb-write-queue.js";

/**
 * The rollup delay while the previous rollup covered at least LOADED_ROLLUP_EVENTS events. A
 * rollup costs ~50 ms before it reads a single new row (history scans, a few dozen statements),
 * so at thousands of events a second rolling up less often frees CPU for collecting. The server
 * runs rollups at a lower priority than its HTTP thread, so under full load a step takes longer;
 * 600 ms here let an event take 760-1 070 ms to reach the dashboard, 450 ms keeps it to 710-800 ms
 * (collector bench; DESIGN.md §8: 1 s).
 */
const LOADED_ROLLUP_DELAY_MS = 450;
const LOADED_ROLLUP_EVENTS = 2000;

export interface RollupSchedulerDeps {
  writer: DuckDBConnection;
  /** The rollups' own connection. */
  roller: DuckDBConnection;
  queue: WriteQueue;
  /** The delay between an append and its rollup; 0: appends roll up inside their transaction. */
  delayMs: number;
  /** Brings staged rows into the store (a rollup then covers everything acknowledged). */
  flush: () => Promise<void>;
  /** Told whenever a day-rollup mark moves (DayRollups). */
  onDayMark: MarkListener;
  /** Events per pass of a first fill of visitor_activity (DayRollups; default 5 000 000). */
  activityPassEvents?: number;
}

export class RollupScheduler {
  /** The highest batch whose append has committed (appends commit in order). */
  committed = 0n;
  /** The highest batch the rollups cover. */
  rolled = 0n;
  readonly days: DayRollups;
  /** Events appended since the last rollup began, and how many that rollup covered. */
  #unrolledEvents = 0;
  #lastRollupEvents = 0;
  #timer: NodeJS.Timeout | null = null;
  #rolling: Promise<void> = Promise.resolve();

  constructor(private readonly d: RollupSchedulerDeps) {
    this.days = new DayRollups((fn) => this.run(fn), d.onDayMark, d.activityPassEvents);
  }

  /** Rollups run inside each append's transaction, on the writer. */
  get inline(): boolean {
    return this.d.delayMs === 0;
  }

  /** Rolls up the batches after `rolled` up to `upto`, inside the caller's transaction on `c`. */
  async rollupTo(upto: bigint, c: DuckDBConnection = this.d.writer): Promise<void> {
    if (this.rolled >= upto) return;
    await this.days.invalidate(c, await rollupBatches(c, this.rolled, upto));
    await c.run("INSERT OR REPLACE INTO lookout_meta VALUES ('rolled_batch', $v)", { v: upto.toString() });
  }

  /** One rollup at a time, on its own connection, covering every batch committed before it began. */
  now(): Promise<void> {
    const run = this.#rolling.then(async () => {
      if (this.d.queue.closed) return;
      const upto = this.committed;
      if (this.rolled >= upto) return;
      this.#lastRollupEvents = this.#unrolledEvents;
      this.#unrolledEvents = 0;
      const roller = this.d.roller;
      await inTransaction(roller, () => this.rollupTo(upto, roller));
      this.rolled = upto; // only once committed: a failed rollup is retried from the same place
    });
    this.#rolling = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs `fn` one at a time with the rollups, on their connection (the writer when rollups run
   * inside appends), so that it never races one.
   */
  run<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.inline) return this.d.queue.run(() => fn(this.d.writer));
    const run = this.#rolling.then(() => {
      if (this.d.queue.closed) throw new Error("event store is closed");
      return fn(this.d.roller);
    });
    this.#rolling = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Settles once the rollup (or runner step) in progress and those queued before it have. */
  settled(): Promise<void> {
    return this.#rolling;
  }

  /** Starts the wait for the next rollup, unless one is already waiting. */
  schedule(): void {
    if (this.#timer || this.d.queue.closed || this.inline) return;
    const delay =
      this.#lastRollupEvents >= LOADED_ROLLUP_EVENTS ? Math.max(this.d.delayMs, LOADED_ROLLUP_DELAY_MS) : this.d.delayMs;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      // Staged rows go in first, so the step covers everything acknowledged until now. A failed
      // rollup leaves `rolled` behind; the next append or sync() retries it.
      this.d
        .flush()
        .catch(() => undefined)
        .then(() => this.now())
        .catch(() => undefined);
    }, delay);
    this.#timer.unref();
  }

  /** Drops the waiting rollup, if any (sync(), migrate() and close() run one themselves). */
  cancel(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Records batch `b` of `events` events as committed (already rolled up when inline). */
  committedBatch(b: bigint, events: number): void {
    this.committed = b;
    this.#unrolledEvents += events;
    if (this.inline) this.rolled = b;
    else this.schedule();
  }
}
