// The DuckDB store's appends: numbers each append as the next batch and commits it in one
// transaction on the writer (the property keys of its new properties, its rows through an
// appender kept across batches, how far into the ingest log the store now holds, the per-visitor
// tables, and its rollup when rollups run inside appends). Callers run commit() in the write queue.
import type { DuckDBAppender, DuckDBConnection } from "@duckdb/node-api";
import type { EventRow } from "@lookout/schema";
import { appendEvents } from "./duckdb-append.js";
import { PropertyKeys } from "./duckdb-property-keys.js";
import { transaction } from "./duckdb-rollup.js";
import type { RollupScheduler } from "./duckdb-rollup-scheduler.js";
import { formatMark, type LogMark } from "./ingest-log.js";
import { appendVisitorBatch, compactIfDue } from "./visitor-tables.js";

export class BatchCommitter {
  /** The last batch number given out (migrate() sets it from the file). */
  batch = 0n;
  /**
   * The writer's appender into `events`, kept across batches (creating one per batch costs a
   * catalog lookup on the event loop); opened by the first append after migrate.
   */
  #appender: DuckDBAppender | null = null;

  constructor(
    private readonly writer: DuckDBConnection,
    private readonly keys: PropertyKeys,
    private readonly rollups: RollupScheduler,
  ) {}

  /**
   * Appends `events` as the next batch in one transaction on the writer; with `mark`, records in
   * the same transaction how far into the ingest log the store now holds.
   */
  async commit(events: readonly EventRow[], mark: LogMark | null): Promise<void> {
    const writer = this.writer;
    const b = ++this.batch;
    // A property's first events give it the next key, in the same transaction.
    const fresh = this.keys.fresh(events);
    const pkeyOf = (p: string) => this.keys.get(p) ?? (fresh.get(p) as bigint);
    await transaction(writer, async () => {
      await PropertyKeys.insert(writer, fresh);
      const into = (this.#appender ??= await writer.createAppender("events"));
      try {
        appendEvents(into, events, b, pkeyOf);
        into.flushSync(); // into the open transaction
      } catch (err) {
        // Rows of a failed batch must not ride along with the next one: empty the appender and
        // let the next batch open a fresh one. (Closed, it no longer keeps the database open.)
        this.#appender = null;
        into.clear();
        into.closeSync();
        throw err;
      }
      if (mark) await writer.run("INSERT OR REPLACE INTO lookout_meta VALUES ('ingest_log', $v)", { v: formatMark(mark) });
      // The per-visitor tables move with the events, in the same transaction (visitor-tables.ts).
      await appendVisitorBatch(writer, b);
      if (this.rollups.inline) await this.rollups.rollupTo(b);
    });
    this.keys.adopt(fresh);
    this.rollups.committedBatch(b, events.length);
    // After the commit, still in the write queue: the visits' rewrite in visitor order, when due,
    // is too big for the batch's transaction (visitor-tables.ts compactIfDue).
    await compactIfDue(writer);
  }

  /** Closes the appender (migrating may change the table under it; it holds no rows between batches). */
  closeAppender(): void {
    this.#appender?.closeSync();
    this.#appender = null;
  }
}
