// Activity rollups (DuckDB), two tables. `activity_rollup`: per property, timezone, event name and local day, the visitors who
// did the event that day, counted by two days of theirs: the last earlier local day on which they
// did the same event (prev_lday) and, for a visitor doing it for the first time, the local day of
// their first-ever event of any name (first_lday). The insights that ask "was this visitor active
// in the interval, and when before" (lifecycle) then read a few rows per day instead of grouping
// every event of the range by visitor: the rows are additive over visitors, and what each
// visitor's state needs is in the row's key. This module owns the table's shape and the SQL that
// fills it; each insight's read of it sits beside that insight's compiler.
//
// Why it stays exact: a visitor active in an interval I (a run of whole local days) has exactly one
// day in I whose prev_lday is before I starts (their first day in I), so summing the rows of I with
// prev_lday before I's start counts each active visitor once; whether they were active in the
// interval before is whether that prev_lday falls in it; whether I holds their first-ever event is
// first_lday's interval (kept only when there is no earlier day with the event: otherwise the
// first-ever event is on or before prev_lday, outside I).
//
// `visitor_activity`: per property, timezone, event name and visitor, the sorted list of local days
// on which they did it. What needs each visitor's own days in the range (stickiness: in how many
// intervals) reads one short list per visitor instead of grouping their events.
//
// Both are filled with the day rollups, a step of local days at a time, under the same mark
// (duckdb-day-rollup.ts): every local day before it is in them, and an append that changes an
// earlier day moves the mark back before it (the next step first drops what it refills).

import { type DayNumberSql, dayNumberSql, midnightAtOrBefore } from "./day-rollup.js";
import { int } from "./params.js";
import type { DerivedColumnType } from "./tables.js";

export const ACTIVITY_ROLLUP_TABLE = "activity_rollup";
export const VISITOR_ACTIVITY_TABLE = "visitor_activity";

/** prev_lday of a visitor's first day with the event; first_lday of every other row. */
export const NO_DAY = -1_000_000;

export const ACTIVITY_ROLLUP_COLUMNS = {
  pkey: "key",
  tz: "string",
  name: "string",
  /** Local day number (days since 1970-01-01 in the timezone), as in day_rollup. */
  lday: "int32",
  /** The same visitor's last earlier local day with this event, NO_DAY when none. */
  prev_lday: "int32",
  /** With prev_lday NO_DAY: the local day of the visitor's first-ever event (any name); else NO_DAY. */
  first_lday: "int32",
  visitors: "int64",
  events: "int64",
} as const satisfies Record<string, DerivedColumnType>;

/**
 * The INSERT that fills the activity rows of local days [$from, $to) for property key $pkey in
 * timezone $tz (bound by the caller, as dayRollupInsert's). `firstMs` is the property's earliest
 * visit start: the days looked up before $from lie between it and `toMs`.
 */
export function activityRollupInsert(tz: string, firstMs: number, toMs: number): string {
  const lday: DayNumberSql = dayNumberSql(tz, firstMs, toMs);
  // Per visitor, event name and local day of the span: how many events.
  const days = `SELECT vkey, name, ${lday("ts")} AS lday, count(*) AS n FROM events WHERE pkey = $pkey AND ts >= $from AND ts < $to GROUP BY ALL`;
  // The span's visitors' last earlier event of each name, and their first-ever event.
  const before =
    "SELECT vkey, name, max(ts) AS last_ts FROM events WHERE pkey = $pkey AND ts < $from AND vkey IN (SELECT vkey FROM d) GROUP BY ALL";
  const firsts =
    "SELECT vkey, min(ts) AS first_ts FROM events WHERE pkey = $pkey AND ts < $to AND vkey IN (SELECT vkey FROM d) GROUP BY vkey";
  const chained =
    `SELECT d.vkey, d.name, d.lday, d.n, coalesce(lag(d.lday) OVER (PARTITION BY d.vkey, d.name ORDER BY d.lday), ` +
    `${lday("b.last_ts")}, ${NO_DAY}) AS prev_lday FROM d LEFT JOIN b USING (vkey, name)`;
  return (
    `INSERT INTO ${ACTIVITY_ROLLUP_TABLE} WITH d AS MATERIALIZED (${days}), b AS (${before}), f AS (${firsts}) ` +
    `SELECT $pkey, $tz, c.name, c.lday, c.prev_lday, CASE WHEN c.prev_lday = ${NO_DAY} THEN ${lday("f.first_ts")} ELSE ${NO_DAY} END AS first_lday, ` +
    `count(*), sum(c.n) FROM (${chained}) AS c LEFT JOIN f USING (vkey) GROUP BY ALL ORDER BY 3, 4`
  );
}

export const VISITOR_ACTIVITY_COLUMNS = {
  pkey: "key",
  tz: "string",
  name: "string",
  vkey: "key",
  /** The local day numbers with the event, ascending, distinct. */
  days: "int32_list",
} as const satisfies Record<string, DerivedColumnType>;

/**
 * The statements of one fill step of `visitor_activity` for local days [$from, $to) of property
 * key $pkey in timezone $tz, in order, each with the parameters it binds: drop the days
 * [$lday, $lday_to) the step refills; then each visitor's days of the step are added to their row
 * (rewritten: DuckDB has no MERGE that appends to a list).
 */
export function visitorActivitySteps(tz: string, firstMs: number, toMs: number): { sql: string; params: string[] }[] {
  const lday: DayNumberSql = dayNumberSql(tz, firstMs, toMs);
  const t = VISITOR_ACTIVITY_TABLE;
  const mine = "pkey = $pkey AND tz = $tz";
  const theirs = "o.pkey = $pkey AND o.tz = $tz";
  return [
    // Days past the step stay until a later step refills them: a query told an older, later mark may still read them.
    {
      sql: `UPDATE ${t} SET days = list_filter(days, x -> x < $lday OR x >= $lday_to) WHERE ${mine} AND days[-1] >= $lday`,
      params: ["pkey", "tz", "lday", "lday_to"],
    },
    { sql: `DELETE FROM ${t} WHERE ${mine} AND len(days) = 0`, params: ["pkey", "tz"] },
    {
      sql:
        `CREATE TEMP TABLE _va_new AS SELECT vkey, name, list_sort(list(DISTINCT ${lday("ts")})) AS days ` +
        "FROM events WHERE pkey = $pkey AND ts >= $from AND ts < $to GROUP BY ALL",
      params: ["pkey", "from", "to"],
    },
    {
      sql: `CREATE TEMP TABLE _va_old AS SELECT o.vkey, o.name, o.days FROM ${t} o SEMI JOIN _va_new n ON o.vkey = n.vkey AND o.name = n.name WHERE ${theirs}`,
      params: ["pkey", "tz"],
    },
    {
      sql: `DELETE FROM ${t} o USING _va_old p WHERE ${theirs} AND o.vkey = p.vkey AND o.name = p.name`,
      params: ["pkey", "tz"],
    },
    {
      sql:
        `INSERT INTO ${t} SELECT $pkey, $tz, n.name, n.vkey, list_sort(list_concat(coalesce(p.days, []), n.days)) ` +
        "FROM _va_new n LEFT JOIN _va_old p ON p.vkey = n.vkey AND p.name = n.name ORDER BY n.name",
      params: ["pkey", "tz"],
    },
    { sql: "DROP TABLE _va_new", params: [] },
    { sql: "DROP TABLE _va_old", params: [] },
  ];
}

/**
 * The first fill of `visitor_activity` for property key $pkey in timezone $tz: every visitor's days
 * before $to, for the share `part` of `parts` of the visitors (by their key's hash, so that each
 * pass groups a bounded number of visitors and no visitor is in two passes).
 */
export function visitorActivityBuild(tz: string, firstMs: number, toMs: number, parts: number, part: number): string {
  const lday: DayNumberSql = dayNumberSql(tz, firstMs, toMs);
  const share = parts > 1 ? ` AND hash(vkey) % ${Math.trunc(parts)} = ${Math.trunc(part)}` : "";
  return (
    `INSERT INTO ${VISITOR_ACTIVITY_TABLE} SELECT $pkey, $tz, name, vkey, list_sort(list(DISTINCT ${lday("ts")})) ` +
    `FROM events WHERE pkey = $pkey AND ts < $to${share} GROUP BY ALL ORDER BY name`
  );
}

/**
 * A visitor's `days` (ascending) from local day `from` to before `to`. The list itself when its
 * first and last day already lie within (most visitors, when the range spans their history): the
 * lambda of list_filter is the dearer part of reading the lists (retention at 10M events: 230-272
 * ms guarded, 273-351 ms always filtered).
 */
export function daysWithin(from: number, to: number): string {
  const [a, b] = [int(from), int(to)];
  return `CASE WHEN days[1] >= ${a} AND days[len(days)] < ${b} THEN days ELSE list_filter(days, x -> x >= ${a} AND x < ${b}) END`;
}

/** The bucket key of a local day number (a lambda's variable) for stickiness' intervals: consecutive buckets one apart. */
export function dayNumberBucket(unit: "day" | "week" | "month", x: string): string {
  if (unit === "day") return x;
  if (unit === "week") return `((${x} + 3) // 7)`;
  const date = `(make_date(1970, 1, 1) + CAST(${x} AS INTEGER))`;
  return `(year(${date}) * 12 + month(${date}))`;
}

/**
 * How far the visitor_activity rows answer a range of an insight: its whole local days before the
 * day rollups' mark. Null when the store keeps none, a filter asks for more than an event name, the
 * range does not start at a local midnight, or the mark is not past its start.
 */
export function activityRollupTo(
  range: { from: number; to: number },
  o: { rollups: boolean; filtered: boolean; through: number | undefined; timezone: string },
): number | null {
  if (!o.rollups || o.filtered || o.through === undefined) return null;
  if (midnightAtOrBefore(o.timezone, range.from) !== range.from) return null;
  const to = Math.min(o.through, midnightAtOrBefore(o.timezone, range.to));
  return to > range.from ? to : null;
}
