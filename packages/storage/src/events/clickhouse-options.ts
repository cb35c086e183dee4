// The ClickHouse event store's options and contract (clickhouse-store.ts): a cluster's shards,
// time limits, what the adapter cannot do (declared by name, DESIGN.md §1), the exactly-once
// append of ingest-log records, and CLICKHOUSE_URL's parsing.

import type { SettledVisits } from "@lookout/query";
import type { EventRow } from "@lookout/schema";
import { identifier } from "./clickhouse-sql.js";
import type { EventStore } from "./event-store.js";
import type { TimelineOptions } from "./timelines.js";

/** A ClickHouse cluster: its name in the servers' remote_servers, and each shard's HTTP URL. */
export interface ClickHouseCluster {
  name: string;
  shards: readonly string[];
}

export interface ClickHouseOptions {
  /** Run on a cluster of shards behind Distributed tables (unset: one node). */
  cluster?: ClickHouseCluster;
  /** Default time limit of query(), in ms (0: none). Default 10 s, as DuckDB's. */
  queryTimeoutMs?: number;
  /** How long deleteProperty() waits for its mutations, in ms. Default 5 minutes. */
  mutationTimeoutMs?: number;
  /**
   * A query's GROUP BY and ORDER BY past this many bytes of memory go on in temporary files
   * instead of failing at the server's memory limit (a range's visits at 10M events passed 2 GB).
   * Default: half the server's `max_memory_usage` (nothing spills when it has none); 0: never.
   */
  spillBytes?: number;
  /**
   * How often the store settles the visits of days that are over (clickhouse-settle.ts), in ms.
   * Default 5 minutes; 0: only when settle() is called.
   */
  settleEveryMs?: number;
  /** How long settled rows a later mark superseded are kept before they are deleted (default 15 minutes: clickhouse-settle.ts). */
  supersededGraceMs?: number;
  /** The visitor timelines funnels and retention grids read (clickhouse-timelines.ts); false: none, every one by SQL. */
  timelines?: TimelineOptions | false;
  /**
   * Whether the live parts of the reads that arrive together are computed once (default true;
   * clickhouse-live-rows.ts). false: each read runs its own (tests compare the two).
   */
  shareLive?: boolean;
  /** The clock (epoch ms) that says which days an insert unsettles (default Date.now; tests fix it). */
  settleClock?: () => number;
  /** The clock (epoch ms) that places the timelines' base boundary (default Date.now; the bench sets its own "now"). */
  now?: () => number;
}

/**
 * What this adapter cannot do that another can, by name, with the reason (DESIGN.md §1: declared,
 * never silently skipped). Suites skip exactly the tests named here and print the reason.
 */
export const CLICKHOUSE_CANNOT = {} as const satisfies Partial<Record<string, string>>;

/** Rows of one ingest-log record, under the record's id (clickhouse-ingest.ts). */
export interface IngestRecord {
  id: string;
  rows: readonly EventRow[];
}

export interface ClickHouseEventStore extends EventStore {
  readonly cannot: typeof CLICKHOUSE_CANNOT;
  /**
   * Appends records exactly once: records whose id is already stored are skipped, the rest go in
   * one INSERT (all or nothing in 18.16 for one block), so a retry after a lost answer, or a replay
   * of the log after a crash, cannot duplicate a record.
   */
  appendOnce(records: readonly IngestRecord[]): Promise<void>;
  /** How many shared live tables this store has made (clickhouse-live-rows.ts): how tests see the sharing. */
  readonly liveTablesMade: number;
  /** How many times this store has read settled history for live visitors it had not seen (clickhouse-live-rows.ts). */
  readonly liveHistoryReads: number;
  /**
   * Settles the visits of every day due at `now` (the day over, SETTLE_MS past),
   * so reads take them as plain rows instead of merging their states (@lookout/query
   * clickhouse-visits.ts); also deletes the rows of batches later marks superseded. Resolves to the
   * number of days settled. The store also does this on its own timer (settleEveryMs).
   */
  settle(now?: Date): Promise<number>;
  /** The settled visits as of now (EventStore.settledVisits): always kept here. */
  settledVisits(): Promise<SettledVisits>;
  /**
   * Starts keeping the pair's day rows the first time a read asks (in the background) and answers
   * undefined: ClickHouse's bounds come with the settled visits (SettledVisits.dayRows).
   */
  dayRollupThrough(property: string, timezone: string): number | undefined;
  /**
   * Keeps day rows for the property in the timezone (@lookout/query clickhouse-day-rows.ts) and
   * fills them for every settled day now; reads take whole days from them once filled (a read's
   * dayRollupThrough() starts the same in the background).
   */
  buildDayRollups(property: string, timezone: string): Promise<void>;
  /** Builds the property's visitor timeline now unless it has one (the bench); whether it has one after. */
  buildTimeline(property: string): Promise<boolean>;
  /** The server's version string (e.g. "18.16.1"). */
  readonly serverVersion: string;
  readonly database: string;
}

/** `CLICKHOUSE_URL` -> the server's base URL and the database (the URL's path, default "lookout"). */
export function parseClickHouseUrl(raw: string): { url: string; database: string; username: string; password: string } {
  const u = new URL(raw);
  const database = decodeURIComponent(u.pathname.replace(/^\/+|\/+$/g, "")) || "lookout";
  const username = decodeURIComponent(u.username) || "default";
  const password = decodeURIComponent(u.password);
  return { url: `${u.protocol}//${u.host}`, database: identifier(database), username, password };
}
