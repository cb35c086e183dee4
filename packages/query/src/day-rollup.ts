// Day rollups (DuckDB): the visit rollups (tables.ts) summed per property, timezone, local day,
// dimension value and local day of the visitor's previous visit with that value. A 90-day
// dashboard at 100M events reads ~24M visit rows per panel; the same panel from day rollups reads
// the few rows per day and value that remain once visits with the same previous-visit day are
// summed. This module owns the table's shape, the SQL that fills it for a span of days, and the
// part of a query it answers.
//
// Why it stays exact: a visitor counts in a range starting at A on their first visit in it, i.e.
// on the visit whose prev_* is before A (tables.ts). When A is a local midnight, "prev before A"
// is "prev's local day before A's local day", so the rows keyed by prev_lday answer it for every
// range that starts on a day boundary, and the count is additive over any split of the range's
// visits. A query therefore reads whole days from here and the rest (the partial last day, days
// not materialized yet) from the visit rollups with the same "prev before A" test, and sums both.
// A chart counts a visitor on their first visit in each bucket: for day, week and month buckets
// "prev before A, or in an earlier bucket" is again a test on prev_lday. The other metrics the rows carry are plain sums. Filtered queries, goal conversions, prop
// breakdowns and hour or minute charts read the visit rollups as before.
import type { Metric } from "@lookout/schema";
import type { Ingredients } from "./catalog.js";
import { chDayBucket, VISIT_DAYS_TABLE } from "./clickhouse-day-rows.js";
import { settledBatchList, WINNERS } from "./clickhouse-visits.js";
import type { SettledVisits } from "./compiled.js";
import { duckdb, type SqlDialect } from "./dialects.js";
import { offsetCase } from "./parts.js";
import { type TableScope, tableRead } from "./relation.js";
import { type DerivedColumnType, prevColumn, SESSION_DIMENSION_COLUMNS, type SessionDimensionColumn } from "./tables.js";
import { dayOfNaive, formatTimestamp, localDay, naiveOfDay, offsetSegments, startOfDay } from "./tz.js";

const DAY_MS = 86_400_000;

export const DAY_ROLLUP_TABLE = "day_rollup";

export const DAY_ROLLUP_COLUMNS = {
  pkey: "key",
  tz: "string",
  /** Local day number: days since 1970-01-01 in the timezone (the DuckDB day bucket key). */
  lday: "int32",
  dim: "string",
  value: "string",
  /** Local day of the same visitor's previous visit with this value (about 0 for none). */
  prev_lday: "int32",
  visits: "int64",
  pageviews: "int64",
  engaged_ms: "float64",
  events: "int64",
  bounces: "int64",
  duration: "float64",
} as const satisfies Record<string, DerivedColumnType>;

/**
 * Which properties and timezones have day rows, and up to where: every local day before
 * `through_ms` (a local midnight, epoch ms) is in `day_rollup`; later ones are not.
 */
export const DAY_ROLLUP_STATE_DDL =
  "CREATE TABLE IF NOT EXISTS day_rollup_state (pkey BIGINT NOT NULL, tz VARCHAR NOT NULL, through_ms BIGINT NOT NULL, PRIMARY KEY (pkey, tz))";

/** The `dim` of the property-wide rows (no dimension: the top stats and the chart). */
export const ANY_DIM = "any";

/** Every `dim` the rows are kept for: the visit-level columns, `path` and `name`. */
export type DayRollupDim = typeof ANY_DIM | SessionDimensionColumn | "path" | "name";

/** Metrics that are sums of the rows' columns (what a day row can answer). */
const ADDITIVE: Record<Metric, (keyof Ingredients)[] | null> = {
  visitors: ["visitors"],
  visits: ["visits"],
  pageviews: ["pageviews"],
  views_per_visit: ["pageviews", "visits"],
  bounce_rate: ["bounces", "visits"],
  visit_duration: ["durationSum", "visits"],
  events: ["events"],
  time_on_page: ["engagedMs", "pageviews"],
  conversions: null,
  conversion_rate: null,
};

/** The ingredients the metrics need, or null when one of them is not a sum of day rows. */
export function additiveIngredients(metrics: readonly Metric[]): (keyof Ingredients)[] | null {
  const out = new Set<keyof Ingredients>();
  for (const m of metrics) {
    const need = ADDITIVE[m];
    if (!need) return null;
    for (const i of need) out.add(i);
  }
  return [...out];
}

/** A day row's column for each ingredient (visitors: see dayRollupSelect). */
const ROW_SUM: Record<Exclude<keyof Ingredients, "visitors" | "conversions">, string> = {
  visits: "sum(visits)",
  pageviews: "sum(pageviews)",
  engagedMs: "sum(engaged_ms)",
  events: "sum(events)",
  bounces: "sum(bounces)",
  durationSum: "sum(duration)",
};

/** The column an ingredient is carried in between the two halves of a split query. */
export const ingredientColumn = (i: keyof Ingredients) => `i_${i}`;

/** The ingredients of a split query's outer SELECT: sums of both halves' columns. */
export const SUMMED_INGREDIENTS: Ingredients = {
  visitors: `sum(${ingredientColumn("visitors")})`,
  visits: `sum(${ingredientColumn("visits")})`,
  pageviews: `sum(${ingredientColumn("pageviews")})`,
  engagedMs: `sum(${ingredientColumn("engagedMs")})`,
  events: `sum(${ingredientColumn("events")})`,
  bounces: `sum(${ingredientColumn("bounces")})`,
  durationSum: `sum(${ingredientColumn("durationSum")})`,
  conversions: "NULL", // never split: not a sum of day rows
};

/**
 * Where the part of `period` that day rows answer ends (rows exist for the visits before
 * `through`), or null when none do: the period must start at a local midnight for them to answer
 * it. DuckDB's `through` is a local midnight; ClickHouse's may fall inside a local day (its rows
 * are per UTC batch: clickhouse-day-rows.ts's dayRowsThrough), and then so may the end.
 */
export function wholeDaysEnd(tz: string, period: { from: number; to: number }, through: number | undefined): number | null {
  if (through === undefined || midnightAtOrBefore(tz, period.from) !== period.from) return null;
  const to = Math.min(through, midnightAtOrBefore(tz, period.to));
  return to > period.from ? to : null;
}

/**
 * The first local day day rows are not read for when they answer up to `end` (wholeDaysEnd): the
 * day of `end` when it is a local midnight, else the day after (its day's rows hold the visits
 * before `end`).
 */
export function rowsEndDay(tz: string, end: number): number {
  return localDayNumber(tz, end - 1) + 1;
}

/** The local day number of a local midnight (the key of lday). */
export function localDayNumber(tz: string, midnightMs: number): number {
  return Math.round(naiveOfDay(localDay(tz, midnightMs)) / DAY_MS);
}

/** The local midnight at or before an instant. */
export function midnightAtOrBefore(tz: string, ms: number): number {
  return startOfDay(tz, localDay(tz, ms));
}

/** Chart intervals day rows can answer: whole local days. */
export type DayInterval = "day" | "week" | "month";

/** The chart bucket key of a local day number: the key DuckDB's Dialect.bucket gives that day. */
export function dayBucket(interval: DayInterval, day: string): string {
  if (interval === "week") return `((${day} + 3) // 7)`;
  if (interval === "month") return `date_trunc('month', make_timestamp(CAST(${day} AS BIGINT) * 86400000000))`;
  return day;
}

/**
 * How each engine reads its day rows: the table, its dimension column (ClickHouse's is not `dim`: an
 * alias there is seen by WHERE, and the breakdown's `value AS dim` would shadow it), the conditions
 * it adds, a day's bucket key, a conditional sum.
 */
const DAY_ROWS_READ: Record<
  SqlDialect,
  {
    table: "day_rollup" | "visit_days";
    dim: string;
    /** Conditions on the rows of visits starting in [from, end) (epoch ms; `from` a local midnight). */
    where: (o: { from: number; end: number; settled: SettledVisits | undefined }) => string[];
    bucket: typeof dayBucket;
    sumIf(e: string, c: string): string;
  }
> = {
  duckdb: {
    table: DAY_ROLLUP_TABLE,
    dim: "dim",
    where: () => [],
    bucket: dayBucket,
    sumIf: (e, c) => `coalesce(sum(${e}) FILTER (WHERE ${c}), 0)`,
  },
  // ClickHouse's rows of the settled days' winning batches (clickhouse-day-rows.ts): those of the
  // read's UTC days when the settled visits are known when compiling, none of the day its rows end
  // in (rows may be there before the batch is marked filled).
  clickhouse: {
    table: VISIT_DAYS_TABLE,
    dim: "dimension",
    where: (o) => [
      `batch IN ${o.settled ? settledBatchList(o.settled, Math.floor(o.from / DAY_MS), Math.ceil(o.end / DAY_MS)) : WINNERS}`,
    ],
    bucket: chDayBucket,
    sumIf: (e, c) => `sumIf(${e}, ${c})`,
  },
};

/**
 * The day rows' half of one period of a split query: days [fromDay, toDay) of `dim`, grouped by
 * `key` (the value for a breakdown, the chart bucket for a chart, nothing for a total).
 * Placeholders come from the caller; day numbers are integers, printed.
 */
export function dayRollupSelect(
  s: TableScope,
  o: {
    tz: string;
    dim: string;
    fromDay: number;
    toDay: number;
    /** Grouped into `dim` (breakdowns) or `k` (chart buckets), as the visit-rollup half is. */
    key: { by: "value" } | { by: "bucket"; interval: DayInterval } | null;
    ingredients: (keyof Ingredients)[];
    /** The visits the rows answer for: starting in [from, end) (wholeDaysEnd), and the settled visits when known. */
    span: { from: number; end: number; settled: SettledVisits | undefined };
  },
): string {
  const read = DAY_ROWS_READ[s.d.name];
  const from = Math.trunc(o.fromDay);
  let keyExpr: string | null = null;
  // A visitor counts on their first visit in the range, and in a chart on their first in each bucket.
  let counted = `prev_lday < ${from}`;
  if (o.key?.by === "value") keyExpr = "value";
  else if (o.key?.by === "bucket") {
    keyExpr = read.bucket(o.key.interval, "lday");
    counted =
      o.key.interval === "day"
        ? "prev_lday < lday"
        : `prev_lday < ${from} OR ${read.bucket(o.key.interval, "prev_lday")} < ${keyExpr}`;
  }
  const cols: string[] = [];
  if (keyExpr) cols.push(`${keyExpr} AS ${o.key?.by === "value" ? "dim" : "k"}`);
  for (const i of o.ingredients) {
    if (i === "conversions") throw new Error("conversions are not in day rollups");
    cols.push(`${i === "visitors" ? read.sumIf("visits", counted) : ROW_SUM[i]} AS ${ingredientColumn(i)}`);
  }
  const where = [
    `tz = ${o.tz}`,
    `${read.dim} = ${o.dim}`,
    `lday >= ${from}`,
    `lday < ${Math.trunc(o.toDay)}`,
    ...read.where(o.span),
  ];
  return `SELECT ${cols.join(", ")} FROM ${tableRead(s, read.table, where)}${keyExpr ? ` GROUP BY ${keyExpr}` : ""}`;
}

// --- filling ------------------------------------------------------------------------------------

/** A timestamp column -> its local day number (SQL). */
export type DayNumberSql = (column: string) => string;

/** The local day number of a timestamp column, with the offsets of `tz` over [fromMs, toMs). */
export function dayNumberSql(tz: string, fromMs: number, toMs: number): DayNumberSql {
  const segments = offsetSegments(tz, Math.min(fromMs, toMs), toMs);
  const literal = (ms: number) => `TIMESTAMP '${formatTimestamp(ms)}'`;
  return (column) => `CAST(${duckdb.bucket("day", column, offsetCase(segments, column, literal))} AS INTEGER)`;
}

const SESSION_SUMS = "count(*), sum(s.pageviews), sum(s.engaged_ms), sum(s.events), count_if(s.bounce), sum(s.duration)";

/**
 * The INSERT that fills the day rows of visits starting in [$from, $to) for property key $pkey in
 * timezone $tz (bound by the caller). `firstMs` is the property's earliest visit: previous visits
 * lie between it and `toMs` (or are the 1970 marker), so the offsets cover that span.
 */
export function dayRollupInsert(tz: string, firstMs: number, toMs: number): string {
  const lday = dayNumberSql(tz, firstMs, toMs);
  const inSpan = (a: string) => `${a}.pkey = $pkey AND ${a}.start_ts >= $from AND ${a}.start_ts < $to`;
  const sessionRows = (dim: string, value: string, prev: string) =>
    `SELECT ${lday("s.start_ts")}, '${dim}', ${value}, ${lday(`s.${prev}`)}, ${SESSION_SUMS} FROM sessions s WHERE ${inSpan("s")} GROUP BY ALL`;
  const parts = [
    sessionRows(ANY_DIM, "''", prevColumn("any")),
    ...Object.values(SESSION_DIMENSION_COLUMNS).map((c) => sessionRows(c, `s.${c}`, prevColumn(c))),
    `SELECT ${lday("p.start_ts")}, 'path', p.path, ${lday("p.prev_path")}, count(*), sum(p.pageviews), sum(p.engaged_ms), ` +
      `sum(s.events), count_if(s.bounce), sum(s.duration) FROM session_pages p JOIN sessions s USING (skey) ` +
      `WHERE ${inSpan("p")} AND ${inSpan("s")} GROUP BY ALL`,
    `SELECT ${lday("e.start_ts")}, 'name', e.name, ${lday("e.prev_name")}, count(*), sum(s.pageviews), sum(s.engaged_ms), ` +
      `sum(e.events), count_if(s.bounce), sum(s.duration) FROM session_events e JOIN sessions s USING (skey) ` +
      `WHERE ${inSpan("e")} AND ${inSpan("s")} GROUP BY ALL`,
  ];
  // Sorted by dim: each panel reads one dim, and zone maps then skip the others' rows.
  return `INSERT INTO ${DAY_ROLLUP_TABLE} SELECT $pkey, $tz, * FROM (${parts.join(" UNION ALL ")}) ORDER BY 4, 3`;
}

/** Visits per local day from $from to $to for property key $pkey: what a fill step plans with. */
export function visitsPerDaySql(tz: string, fromMs: number, toMs: number): string {
  const lday = dayNumberSql(tz, fromMs, toMs);
  return `SELECT ${lday("start_ts")} AS lday, count(*) AS n FROM sessions WHERE pkey = $pkey AND start_ts >= $from AND start_ts < $to GROUP BY ALL ORDER BY lday`;
}

/** The local midnight that starts a local day number. */
export function midnightOfDayNumber(tz: string, lday: number): number {
  return startOfDay(tz, dayOfNaive(lday * DAY_MS));
}
