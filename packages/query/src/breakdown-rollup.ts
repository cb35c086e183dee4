// Breakdown rollups (DuckDB), two tables that answer a trend broken down by a visit attribute of
// the event (country, browser, source...) without grouping every event of the range by visitor.
//
// `breakdown_rollup`: per property, timezone, event name, attribute (dim), value and local day, the
// visitors who did the event with that value that day, counted by the last earlier local day on
// which they did the same event with the same value (prev_lday, NO_DAY when none). As for
// activity_rollup, a visitor with value v in a run of whole local days I has exactly one day in I
// whose prev_lday lies before I, so per value the sums are exact distinct counts.
//
// What per-value rows cannot add up is "$other", the distinct visitors over every value outside the
// top N: a visitor with two such values is in two values' counts. `breakdown_multi` lists, per
// property, timezone, event name and attribute, the visitors who ever did the event with two or
// more values of it (before the mark): the only ones whose per-value counts overlap. A query takes
// the sums and replaces the contribution of those visitors (and of the visitors active after the
// mark, whose days the rows do not hold) by what their own events say (trends-breakdown-rollup.ts).
// For a visit attribute most visitors have one value (a visitor's country changes rarely), so the
// visitors it reads events for are few; when they are not, the answer is still exact, only slower.
//
// Both are filled with the day rollups, under the same mark (duckdb-day-rollup.ts), as
// visitor_activity is: the first fill covers every settled day at once (a pass per share of the
// visitors, each inserting its own rows: the rows add up), later steps a few days each, the
// visitors' earlier days looked up in events. breakdown_multi only grows (a visitor listed who has
// one value left costs a little reading, never a wrong count).

import { NO_DAY } from "./activity-rollup.js";
import { type DayNumberSql, dayNumberSql } from "./day-rollup.js";
import type { DerivedColumnType, SESSION_ATTRIBUTE_COLUMNS } from "./tables.js";

export const BREAKDOWN_ROLLUP_TABLE = "breakdown_rollup";
export const BREAKDOWN_MULTI_TABLE = "breakdown_multi";

/**
 * The event columns the rows are kept for: the visit attributes that describe the visitor (where
 * they are, what they browse with), which few visitors ever have two of. Not the acquisition ones
 * (source, referrer, channel, utm_*): a visitor's source changes from visit to visit, so most
 * visitors would be in breakdown_multi and the answer would read their events anyway (bench at
 * 10M events: a source breakdown 2.4 s from the rollups against 1.6 s from events), for a fill
 * that costs as much as the others'.
 */
export const BREAKDOWN_ROLLUP_DIMS = [
  "country",
  "region",
  "city",
  "browser",
  "browser_version",
  "os",
  "os_version",
  "device",
  "screen",
  "hostname",
] as const satisfies readonly (typeof SESSION_ATTRIBUTE_COLUMNS)[number][];
export type BreakdownRollupDim = (typeof BREAKDOWN_ROLLUP_DIMS)[number];

export const BREAKDOWN_ROLLUP_COLUMNS = {
  pkey: "key",
  tz: "string",
  name: "string",
  /** The event column (BREAKDOWN_ROLLUP_DIMS). */
  dim: "string",
  value: "string",
  /** Local day number, as in day_rollup. */
  lday: "int32",
  /** The same visitor's last earlier local day with this event and value, NO_DAY when none. */
  prev_lday: "int32",
  visitors: "int64",
  events: "int64",
} as const satisfies Record<string, DerivedColumnType>;

export const BREAKDOWN_MULTI_COLUMNS = {
  pkey: "key",
  tz: "string",
  name: "string",
  dim: "string",
  vkey: "key",
} as const satisfies Record<string, DerivedColumnType>;

/**
 * Event names the rows leave out: engagement pings, leave beacons and identify calls are no
 * visitor's action to chart (trends of them read events), and they are over half of all events.
 */
export const BREAKDOWN_ROLLUP_SKIPPED_EVENTS = ["engagement", "pageleave", "identify"] as const;
const kept = `name NOT IN (${BREAKDOWN_ROLLUP_SKIPPED_EVENTS.map((n) => `'${n}'`).join(", ")})`;

/** A share of the visitors by their key's hash (no visitor in two shares), or all of them. */
function shareOf(parts: number, part: number): string {
  return parts > 1 ? ` AND hash(vkey) % ${Math.trunc(parts)} = ${Math.trunc(part)}` : "";
}

/**
 * The INSERT that fills the rows of `dim` for local days [$from, $to) of property key $pkey in
 * timezone $tz (bound by the caller, as activityRollupInsert's): a later fill step. `firstMs` is the property's earliest visit start: the earlier days looked up
 * lie between it and `toMs`.
 */
export function breakdownRollupInsert(dim: BreakdownRollupDim, tz: string, firstMs: number, toMs: number): string {
  if (!BREAKDOWN_ROLLUP_DIMS.includes(dim)) throw new Error(`not a breakdown rollup column: ${dim}`);
  const lday: DayNumberSql = dayNumberSql(tz, firstMs, toMs);
  const days =
    `SELECT vkey, name, ${dim} AS value, ${lday("ts")} AS lday, count(*) AS n FROM events ` +
    `WHERE pkey = $pkey AND ts >= $from AND ts < $to AND ${kept} GROUP BY ALL`;
  // The span's visitors' last earlier event of each name and value.
  const before =
    `SELECT vkey, name, ${dim} AS value, max(ts) AS last_ts FROM events ` +
    "WHERE pkey = $pkey AND ts < $from AND vkey IN (SELECT vkey FROM d) GROUP BY ALL";
  const chained =
    "SELECT d.name, d.value, d.lday, d.n, coalesce(lag(d.lday) OVER (PARTITION BY d.vkey, d.name, d.value ORDER BY d.lday), " +
    `${lday("b.last_ts")}, ${NO_DAY}) AS prev_lday FROM d LEFT JOIN b USING (vkey, name, value)`;
  return (
    `INSERT INTO ${BREAKDOWN_ROLLUP_TABLE} WITH d AS MATERIALIZED (${days}), b AS (${before}) ` +
    `SELECT $pkey, $tz, c.name, '${dim}', c.value, c.lday, c.prev_lday, count(*), sum(c.n) FROM (${chained}) AS c GROUP BY ALL ORDER BY 3, 5, 6`
  );
}

/** Per visitor and event name, whether they did it with two or more values of each attribute (min <> max: values are never NULL). */
const multiFlags = () => BREAKDOWN_ROLLUP_DIMS.map((c) => `min(${c}) <> max(${c}) AS ${c}`).join(", ");
/** The INSERT of the flagged visitors of `m` (a named row set of multiFlags), leaving out those listed already. */
function multiInsert(m: string, skipListed: boolean): string {
  const each = BREAKDOWN_ROLLUP_DIMS.map((c) => `SELECT name, '${c}' AS dim, vkey FROM m WHERE ${c}`).join(" UNION ALL ");
  const fresh = skipListed
    ? ` WHERE NOT EXISTS (SELECT 1 FROM ${BREAKDOWN_MULTI_TABLE} AS o WHERE o.pkey = $pkey AND o.tz = $tz AND o.name = n.name AND o.dim = n.dim AND o.vkey = n.vkey)`
    : "";
  return `INSERT INTO ${BREAKDOWN_MULTI_TABLE} WITH m AS MATERIALIZED (${m}) SELECT $pkey, $tz, n.name, n.dim, n.vkey FROM (${each}) AS n${fresh}`;
}

/**
 * The first fill of both tables for property key $pkey in timezone $tz: every local day before
 * $to, for the share `part` of `parts` of the visitors, in order, each statement with the
 * parameters it binds (as visitorActivitySteps'). The share's events are first folded into one
 * row per visitor, event name, local day and attribute values (a fraction of the events: the
 * attributes rarely change within a visitor's day), which every attribute's rows and the
 * visitors with two values are then read from. The tables hold no rows of the pair yet.
 */
export function breakdownRollupBuild(
  tz: string,
  firstMs: number,
  toMs: number,
  parts: number,
  part: number,
): { sql: string; params: string[] }[] {
  const lday: DayNumberSql = dayNumberSql(tz, firstMs, toMs);
  const cols = BREAKDOWN_ROLLUP_DIMS.join(", ");
  const rows = (dim: BreakdownRollupDim) =>
    `INSERT INTO ${BREAKDOWN_ROLLUP_TABLE} SELECT $pkey, $tz, name, '${dim}', value, lday, prev_lday, count(*), sum(n) FROM (` +
    `SELECT name, value, lday, n, coalesce(lag(lday) OVER (PARTITION BY vkey, name, value ORDER BY lday), ${NO_DAY}) AS prev_lday ` +
    `FROM (SELECT vkey, name, ${dim} AS value, lday, sum(n) AS n FROM _bd GROUP BY ALL) AS g) AS c GROUP BY ALL ORDER BY 3, 5, 6`;
  return [
    {
      sql: `CREATE TEMP TABLE _bd AS SELECT vkey, name, ${lday("ts")} AS lday, ${cols}, count(*) AS n FROM events WHERE pkey = $pkey AND ts < $to AND ${kept}${shareOf(parts, part)} GROUP BY ALL`,
      params: ["pkey", "to"],
    },
    ...BREAKDOWN_ROLLUP_DIMS.map((dim) => ({ sql: rows(dim), params: ["pkey", "tz"] })),
    { sql: multiInsert(`SELECT vkey, name, ${multiFlags()} FROM _bd GROUP BY vkey, name`, false), params: ["pkey", "tz"] },
    { sql: "DROP TABLE _bd", params: [] },
  ];
}

/**
 * The INSERT that lists the visitors of local days [$from, $to) (a later fill step) who did an event with two or more values of an attribute in all their events before $to, for
 * every attribute at once (min <> max: the values are never NULL), leaving out those listed already.
 */
export function breakdownMultiInsert(): string {
  return multiInsert(
    `SELECT vkey, name, ${multiFlags()} FROM events WHERE pkey = $pkey AND ts < $to AND ${kept} ` +
      "AND vkey IN (SELECT vkey FROM events WHERE pkey = $pkey AND ts >= $from AND ts < $to) GROUP BY vkey, name",
    true,
  );
}
