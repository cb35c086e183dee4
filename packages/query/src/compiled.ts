// What a compiler hands back: SQL text, its bound parameters, and what the caller needs to shape
// the rows (the resolved range, the chart's buckets). Shared by every kind and by the stores.
import type { Dimension, Interval, Metric, QueryKind } from "@lookout/schema";
import type { ComparisonRange, RangeContext, ResolvedRange } from "./date-range.js";
import type { SqlDialect } from "./dialects.js";

export interface CompiledQuery {
  sql: string;
  params: Record<string, unknown>;
  /**
   * Parameters whose value is a property id that the adapter must bind as its own integer key of
   * that property (DuckDB: tables.ts), or as a key no row has when it has none.
   */
  keyParams?: string[];
}

export interface CompileContext extends RangeContext {
  /**
   * Where the store's day rollups for this property and timezone end (a local midnight, epoch ms;
   * every day before it is there), or undefined when it keeps none: see day-rollup.ts.
   */
  dayRollupThrough?: number | undefined;
  /**
   * ClickHouse: its settled visits as the store read them for this statement (clickhouse-visits.ts):
   * bound into the statement, and a read leaves out the part no visit of its range can be in.
   * Without it the store binds them when it runs the statement.
   */
  settledVisits?: SettledVisits | undefined;
}

/** ClickHouse's settled visits: the first UTC day read from states (a day number), and each settled day's batch before it. */
export interface SettledVisits {
  firstLiveDay: number;
  batches: readonly string[];
  /**
   * Day rows (clickhouse-day-rows.ts): per (property, timezone) pair that has them (dayRowsKey),
   * the first UTC day whose winning batch has none; every settled day before it has them.
   */
  dayRows?: Readonly<Record<string, number>>;
  /** Path rows (clickhouse-path-days.ts), as dayRows: per pair, the first UTC day whose winning batch has none. */
  pathRows?: Readonly<Record<string, number>>;
  /**
   * The store computes each marked live part once for the reads that arrive together
   * (clickhouse-live-shared.ts): reads print theirs whole and marked.
   */
  sharedLive?: boolean;
}

export interface CompiledStats extends CompiledQuery {
  kind: QueryKind;
  dialect: SqlDialect;
  metrics: Metric[];
  /** A breakdown's dimension, "goal" for the goals kind (a row per goal), else null. */
  dimension: Dimension | "goal" | null;
  range: ResolvedRange;
  comparison: ComparisonRange | null;
  interval: Interval | null;
  /** Timeseries: every bucket label of the range (and of the comparison), in order. */
  buckets: string[];
  comparisonBuckets: string[];
}
