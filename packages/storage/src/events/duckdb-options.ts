// The embedded DuckDB store's options and the interfaces its owners see: the EventStore plus
// its maintenance calls, and the handle a store that stages appends gives the one who writes its
// ingest log (duckdb-thread-store.ts).
import { availableParallelism } from "node:os";
import type { EventRow } from "@lookout/schema";
import type { TimelineOptions } from "./timelines.js";
import type { EventStore } from "./event-store.js";
import type { LogMark } from "./ingest-log.js";
import type { StagingOptions } from "./staged-appends.js";

export interface DuckDbOptions {
  /** Reader connections (default 4). */
  readers?: number;
  /**
   * The time limit of a read (query(), events(), visitor()) unless its call says otherwise, in ms
   * (default 10 000; 0: none). Past it the reader's connection is interrupted (DuckDB stops at
   * its next chunk of rows) and the read rejects with QueryTimeoutError.
   */
  queryTimeoutMs?: number;
  /** DuckDB memory_limit (default 1GB: DESIGN.md §8 allows 2 GB peak for the whole process). */
  memoryLimit?: string;
  /** Bytes of visitor timelines that leave memoryLimit whole; past them, the limit gives way (default 400 MiB: duckdb-store.ts duckDbRoom). */
  timelineMemoryShare?: number;
  /** DuckDB worker threads (default: defaultDuckDbThreads()). */
  threads?: number;
  /**
   * DuckDB's index_scan_max_count (default INDEX_SCAN_MAX_COUNT): a read by the per-visitor
   * tables' client_id index that matches more rows than this scans the table instead, narrowed by
   * zone maps (the tables are kept in visitor order). Fetching a row by index reads each of its
   * columns apart; a heavy visitor's few hundred wide visit rows cost 2x more that way.
   */
  indexScanMaxCount?: number;
  /**
   * How long after an append the rollups catch up (default 250 ms; DESIGN.md §8 wants an event on
   * the dashboard within 1 s). One rollup covers every batch appended meanwhile, so its fixed cost
   * (a scan of the visitors' history) is shared by all of them. 0 rolls up inside each append's
   * transaction: simplest for tests, slower under load. Under load the delay grows to
   * LOADED_ROLLUP_DELAY_MS.
   */
  rollupDelayMs?: number;
  /**
   * Events per chunk when rebuilding the rollups, and per step when catching up on batches left
   * unrolled (default 1 000 000; bounds the memory either needs); five times it per pass of
   * visitor_activity's first fill (duckdb-day-rollup.ts).
   */
  rebuildChunkEvents?: number;
  /**
   * Appends through the ingest log (ingest-log.ts, next to the database file): append() resolves
   * once its rows are in the log, and they reach DuckDB in larger transactions shortly after
   * (the server's collector). Without it each append is its own DuckDB transaction. Whatever an
   * earlier process left in the log is applied on open either way. With `ownerWritesLog`, the
   * owner writes the log itself (from the file `ingestLog` names) and hands the rows over with
   * stage(): the server writes it on its HTTP thread, so that an acknowledgement never waits
   * for the store's thread.
   */
  staging?: StagingOptions & { ownerWritesLog?: boolean };
  /** The visitor timelines funnels read (duckdb-timelines.ts); false: none, every funnel by SQL. */
  timelines?: TimelineOptions | false;
  /** Told whenever what dayRollupThrough() answers for a property and timezone changes. */
  onDayRollupMark?: (property: string, timezone: string, through: number | undefined) => void;
  /** Told how many staged rows each commit took into DuckDB. */
  onStagedCommit?: (rows: number) => void;
}

/** What the owner of a store that stages appends works with (openDuckDbEventStore's result). */
export interface StagingHandle {
  /** With staging: the ingest log's folder and the generation its next file takes. */
  readonly ingestLog: { dir: string; nextGen: number } | null;
  /** Takes rows its owner wrote to the ingest log, up to `mark` (staging.ownerWritesLog). */
  stage(rows: readonly EventRow[], mark: LogMark): void;
  /** Resolves once every staged row is committed to DuckDB. */
  flush(): Promise<void>;
}

export interface DuckDbEventStore extends EventStore {
  /** Rebuilds the rollups from the events table (after a bulk import with rollups deferred). */
  rebuildRollups(): Promise<void>;
  /** Folds the WAL into the database file. */
  checkpoint(): Promise<void>;
  /**
   * Builds the property's visitor timeline now unless it has one (duckdb-timelines.ts; otherwise
   * the first funnel starts it and SQL answers until it is there); whether it has one after.
   */
  buildTimeline(property: string): Promise<boolean>;
  /** Fills the day rollups of a property in a timezone up to the last settled day, now. */
  buildDayRollups(property: string, timezone: string): Promise<void>;
}

/** Staged rows past which appends wait for a commit (memory stays bounded if DuckDB stalls). */
export const STAGED_ROWS_LIMIT = 100_000;

/**
 * One DuckDB thread per four cores, at least one. The store's work is many small statements at
 * once (a dashboard fires ~20 queries over the reader pool, rollups run a few dozen statements
 * over a few thousand rows), so the cores are already busy with separate queries, and splitting
 * each small query across threads only adds coordination. Measured on the 2-core box: one thread
 * instead of two takes the dashboard at 10M events from 94 to 44 ms (p50; CPU 178 -> 75 ms a
 * dashboard) and a rollup of 2 300 events from 146 to 82 ms of CPU. Large one-off statements
 * (rebuilds, the day-rollup fill) are slower, and they run in the background.
 */
export function defaultDuckDbThreads(): number {
  return Math.max(1, Math.floor(availableParallelism() / 4));
}
