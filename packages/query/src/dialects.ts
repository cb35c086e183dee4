// The per-dialect function tables: everything the printer (print.ts) says differently for
// DuckDB and for ClickHouse 18.16. Nothing here sees a user value: values arrive as placeholders.
//
// Differences worth knowing:
// - ClickHouse 18.16 allows one JOIN per SELECT, so joins nest; DuckDB chains them.
// - ClickHouse keeps no rollups: `sessions`, `session_pages` and `session_events` are its settled
//   visit rows plus subqueries merging the aggregate states of its visit tables for the days not
//   settled (clickhouse-visits.ts), kept by materialized views at insert, reading the UTC days from
//   one day before the range to one day after, so that a visit's start is its real start (visits
//   longer than that are cut at the margin). Their prev_* columns are stored on the settled rows
//   and computed in the read for the rest, only those the query selects.
// - ClickHouse has no Map before 21.x: props are the Nested columns props.key / props.value.
// - ClickHouse 18.16 has no DateTime64: `ts` holds whole seconds and `ts_ms` the milliseconds
//   (the storage adapter's clickhouse-sql.ts). The visit states order events and measure a visit's
//   duration by ts * 1000 + ts_ms, so that events within one second keep their order.
// - In ClickHouse an alias may not reuse the name of a column it reads (cyclic aliases), so the
//   visit tables' state columns are named s_*.
// - The property predicate: ClickHouse compares the id (`property`, the head of its sort key);
//   DuckDB compares the store's integer key of it (`pkey`, see tables.ts), bound by the adapter.
// - Chart buckets: integer arithmetic on epoch milliseconds in DuckDB, toStartOf* in ClickHouse.
import type { SettledVisits } from "./compiled.js";
import type { Interval } from "@lookout/schema";
import { sessionEventsRead, sessionPagesRead, sessionsRead } from "./clickhouse-visits.js";
import type { DerivedTable } from "./tables.js";

export type SqlDialect = "duckdb" | "clickhouse";
/**
 * "propertyKey": the value is a property id, which the adapter binds as its own integer key of
 * that property (CompiledQuery.keyParams; DuckDB only, see tables.ts).
 */
export type ParamType = "string" | "timestamp" | "propertyKey";

/** Where the events a derived subquery reads may lie: printed placeholders. */
export interface EventBounds {
  property: string;
  from: string;
  to: string;
  /** The same bounds in epoch ms, and the settled visits when the caller knows them (ClickHouse). */
  fromMs?: number;
  toMs?: number;
  settled?: SettledVisits | undefined;
  /**
   * Where the rows' prev_* history starts, when before `from`: a split period's rest (day-rollup.ts)
   * reads its own days' visits, but counts a visitor against their visits since the period's start.
   */
  historyFrom?: string;
  historyFromMs?: number;
  /**
   * With `settled`: the earliest start of a visit the read keeps (the stats printer's reads keep
   * their periods' visits: Scope.derivedWhere). Settled rows are keyed by their visit's start day,
   * so none before it is read, and a read that starts in the live days reads no settled rows.
   */
  startsFrom?: string;
  startsFromMs?: number;
}

export interface Dialect {
  readonly name: SqlDialect;
  placeholder(name: string, type: ParamType): string;
  /** How the property predicate names the property: its key (DuckDB) or the id itself. */
  readonly propertyParam: ParamType;
  /** The property predicate on any table read, given the placeholder of `propertyParam`. */
  propertyIs(placeholder: string): string;
  countIf(cond: string): string;
  uniq(expr: string): string;
  uniqIf(expr: string, cond: string): string;
  anyValue(expr: string): string;
  /** `a OR b`, evaluating `b` only where `a` is false when the engine can (DuckDB's CASE). */
  orElse(a: string, b: string): string;
  /** Floating division, NULL when the divisor is 0. */
  div(a: string, b: string): string;
  /** Case-insensitive substring test. */
  contains(haystack: string, needle: string): string;
  /** RE2 match (both engines use RE2: linear time). */
  matches(haystack: string, pattern: string): string;
  /** A custom-event prop's value on an `events` row, '' when absent. */
  propValue(key: string): string;
  hasProp(key: string): string;
  /**
   * The key of the local-time bucket a UTC timestamp column falls in, given the UTC offset in force
   * (an expression in minutes). Keys order like time; a chart groups by the key and labels only
   * the groups, so that no per-row date formatting happens.
   */
  bucket(interval: Interval, ts: string, offsetMinutes: string): string;
  /** The label of a bucket key: 'YYYY-MM-DD', or 'YYYY-MM-DD HH:MM:SS' for hours and minutes. */
  label(interval: Interval, key: string): string;
  /** A day, week or month bucket key as an integer, consecutive buckets one apart (lifecycle's "the interval before"). */
  ordinal(interval: "day" | "week" | "month", key: string): string;
  limit(n: number, offset: number): string;
  /**
   * The FROM item of a derived table (print it through relation.ts's tableRead); `reads`: the text
   * that reads its rows (select list, conditions), when known: ClickHouse carries only the columns
   * it names, and computes the prev_* it names for live visits.
   */
  derived(table: DerivedTable, bounds: () => EventBounds, reads?: readonly string[]): string;
  /** Whether `derived` reads a subquery between event bounds (and so binds them): ClickHouse's visit states. */
  readonly derivesTables: boolean;
  /** The event columns (or expression) holding the visit and visitor keys. */
  readonly eventSkey: string;
  readonly eventVkey: string;
  /** A row per element of the list `a` (a select item): how one read makes several rows. */
  unnest(a: string): string;
  /** The list of the positions (from 1) of the list `a`. */
  positions(a: string): string;
  /** Whether the event's visitor key, as a signed 64-bit integer, is one of a list of them (a bound text, its separator bound as `comma`). */
  vkeyIn(list: string, comma: string): string;
  /** Whether derived rows carry prev_* columns (exact visitors by a filtered COUNT). */
  readonly prevColumns: boolean;
  /** Whether the store keeps day rollups (day-rollup.ts) and the insights' rollups filled with them. */
  readonly dayRollups: boolean;
  /**
   * Whether stats may read whole days from day rows where the store has them (CompileContext.dayRollupThrough):
   * DuckDB's day_rollup, ClickHouse's visit_days (clickhouse-day-rows.ts).
   */
  readonly dayRows: boolean;
  /** Whether the store keeps event slots (event-slots.ts): trends count their events and visitors from them. */
  readonly eventSlots: boolean;
  /** Joins `right` to `left` on skey, keeping `columns`. */
  join(left: string, right: string, kind: "inner" | "left", columns: readonly string[]): string;
}

const FMT: Record<Interval, string> = {
  minute: "%Y-%m-%d %H:%M:%S",
  hour: "%Y-%m-%d %H:%M:%S",
  day: "%Y-%m-%d",
  week: "%Y-%m-%d",
  month: "%Y-%m-%d",
};

const MS: Record<Exclude<Interval, "week" | "month">, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/**
 * DuckDB buckets are integers computed from local epoch milliseconds: (ts + offset) // unit, and
 * weeks from day numbers (day 0, 1970-01-01, was a Thursday: Monday-based week = (day + 3) // 7).
 * Integer arithmetic is ~3x cheaper per row than timestamp + INTERVAL, date_trunc and strftime.
 * (`//` truncates toward zero: only the 1970-01-01 "no previous visit" marker is ever negative
 * once shifted west, and every comparison checks that marker against the period start first.)
 */
function duckBucket(i: Interval, ts: string, off: string): string {
  const lms = `(epoch_ms(${ts}) + 60000 * (${off}))`;
  if (i === "week") return `((${lms} // 86400000 + 3) // 7)`;
  if (i === "month") return `date_trunc('month', make_timestamp(${lms} * 1000))`;
  return `(${lms} // ${MS[i]})`;
}

function duckLabel(i: Interval, k: string): string {
  if (i === "month") return `strftime(${k}, '${FMT[i]}')`;
  const us = i === "week" ? `((${k}) * 7 - 3) * 86400000000` : `(${k}) * ${MS[i] * 1000}`;
  return `strftime(make_timestamp(${us}), '${FMT[i]}')`;
}

export const duckdb: Dialect = {
  name: "duckdb",
  placeholder: (n, t) =>
    t === "timestamp" ? `CAST($${n} AS TIMESTAMP)` : t === "propertyKey" ? `CAST($${n} AS BIGINT)` : `CAST($${n} AS VARCHAR)`,
  propertyParam: "propertyKey",
  propertyIs: (ph) => `pkey = ${ph}`,
  countIf: (c) => `count_if(${c})`,
  uniq: (e) => `count(DISTINCT ${e})`,
  uniqIf: (e, c) => `count(DISTINCT CASE WHEN ${c} THEN ${e} END)`,
  anyValue: (e) => `any_value(${e})`,
  orElse: (a, b) => `CASE WHEN ${a} THEN true ELSE ${b} END`,
  div: (a, b) => `(CAST(${a} AS DOUBLE) / NULLIF(${b}, 0))`,
  contains: (h, n) => `contains(lower(${h}), lower(${n}))`,
  matches: (h, p) => `regexp_matches(${h}, ${p})`,
  propValue: (k) => `coalesce(props[${k}], '')`,
  hasProp: (k) => `map_contains(props, ${k})`,
  bucket: duckBucket,
  label: duckLabel,
  // Day and week keys are already day and week numbers.
  ordinal: (i, k) => (i === "month" ? `(year(${k}) * 12 + month(${k}))` : `(${k})`),
  limit: (n, o) => (o > 0 ? `LIMIT ${n} OFFSET ${o}` : `LIMIT ${n}`),
  derived: (table) => table,
  derivesTables: false,
  eventSkey: "skey",
  eventVkey: "vkey",
  unnest: (a) => `unnest(${a})`,
  positions: (a) => `generate_series(1, len(${a}))`,
  vkeyIn: (list, comma) => `vkey IN (SELECT CAST(unnest(string_split(${list}, ${comma})) AS BIGINT))`,
  prevColumns: true,
  dayRollups: true,
  dayRows: true,
  eventSlots: false,
  join: (left, right, kind) => `${left} ${kind === "left" ? "LEFT JOIN" : "JOIN"} ${right} USING (skey)`,
};

const CH_TRUNC: Record<Interval, string> = {
  minute: "toStartOfMinute",
  hour: "toStartOfHour",
  day: "toStartOfDay",
  week: "toMonday",
  month: "toStartOfMonth",
};

export const clickhouse: Dialect = {
  name: "clickhouse",
  placeholder: (n, t) => (t === "timestamp" ? `toDateTime({${n}:String}, 'UTC')` : `{${n}:String}`),
  propertyParam: "string",
  propertyIs: (ph) => `property = ${ph}`,
  countIf: (c) => `countIf(${c})`,
  uniq: (e) => `uniqExact(${e})`,
  uniqIf: (e, c) => `uniqExactIf(${e}, ${c})`,
  anyValue: (e) => `any(${e})`,
  orElse: (a, b) => `(${a} OR ${b})`,
  div: (a, b) => `(toFloat64(${a}) / nullIf(${b}, 0))`,
  contains: (h, n) => `(positionCaseInsensitiveUTF8(${h}, ${n}) > 0)`,
  matches: (h, p) => `match(${h}, ${p})`,
  propValue: (k) => `props.value[indexOf(props.key, ${k})]`,
  hasProp: (k) => `has(props.key, ${k})`,
  bucket: (i, ts, off) => {
    const local = `addMinutes(${ts}, ${off})`;
    return i === "week" || i === "month" ? `toDateTime(${CH_TRUNC[i]}(${local}), 'UTC')` : `${CH_TRUNC[i]}(${local})`;
  },
  label: (i, k) => `formatDateTime(${k}, '${FMT[i]}', 'UTC')`,
  ordinal: (i, k) =>
    `toInt64(${i === "day" ? "toRelativeDayNum" : i === "week" ? "toRelativeWeekNum" : "toRelativeMonthNum"}(${k}, 'UTC'))`,
  limit: (n, o) => `LIMIT ${o}, ${n}`,
  derived: (table, bounds, reads = []) => {
    const b = bounds();
    const read = table === "sessions" ? sessionsRead : table === "session_pages" ? sessionPagesRead : sessionEventsRead;
    return read(clickhouse, b, reads);
  },
  derivesTables: true,
  // Visits and visitors grouped, joined and counted by a 64-bit hash of their ids, as DuckDB's
  // stored skey and vkey are (storage's hash.ts: the same collision odds, computed per query here,
  // so no stored value depends on the engine's hash); the visit tables' merged rows use the same
  // keys (clickhouse-visits.ts). GROUP BY, joins and uniqExact over UInt64 instead of String, at
  // 1M events (bench/clickhouse.bench.ts): the dashboard set 2.93 -> 2.35 s, retention 740 -> 570
  // ms, lifecycle 790 -> 610, paths 2 040 -> 1 710.
  eventSkey: "cityHash64(session_id)",
  eventVkey: "cityHash64(visitor_id)",
  unnest: (a) => `arrayJoin(${a})`,
  positions: (a) => `arrayEnumerate(${a})`,
  // The timelines key visitors by this hash as Int64 (DuckDB's vkey is signed): toInt64 wraps.
  vkeyIn: (list, comma) => `toInt64(cityHash64(visitor_id)) IN (SELECT toInt64(arrayJoin(splitByChar(${comma}, ${list}))))`,
  prevColumns: true,
  dayRollups: false,
  dayRows: true,
  eventSlots: true,
  join: (left, right, kind, columns) =>
    `(SELECT ${columns.join(", ")} FROM ${left} ANY ${kind === "left" ? "LEFT" : "INNER"} JOIN ${right} USING (skey))`,
};

export const DIALECTS: Record<SqlDialect, Dialect> = { duckdb, clickhouse };
