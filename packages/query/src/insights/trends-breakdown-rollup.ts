// Trends broken down by a visit attribute from the breakdown rollups (DuckDB, breakdown-rollup.ts):
// which series they can answer (counts of events or visitors of one unfiltered event, by day or
// longer, broken down by an attribute the rows are kept for) and the statement that answers one.
//
// The answer is a sum over visitors: a visitor adds 1 to a cell (value or "$other", bucket) when
// they did the event with that value (one outside the top N) in the bucket. The rows give that sum
// for the days before the mark, except that a visitor with several values outside the top N is
// counted once per value. So the statement takes the rows' sums and, for the visitors whose share
// they cannot give (those listed in breakdown_multi and those with an event after the mark: the
// set S), swaps what the rows counted for them (their distinct (visitor, value) pairs before the
// mark, from their events) for what they add to the answer (their distinct visitors over the whole
// range). Events are plain sums. S is empty for most ranges that end before today; otherwise its
// events are found by a semi-join on the visitor key (a scan of the range's keys, no grouping).
import {
  type Dimension,
  OTHER_BREAKDOWN_VALUE,
  parseFilters,
  type TrendsMath,
  type TrendsSeries,
  type TrendsSpec,
} from "@lookout/schema";
import { activityRollupTo } from "../activity-rollup.js";
import {
  BREAKDOWN_MULTI_TABLE,
  BREAKDOWN_ROLLUP_DIMS,
  BREAKDOWN_ROLLUP_SKIPPED_EVENTS,
  BREAKDOWN_ROLLUP_TABLE,
  type BreakdownRollupDim,
} from "../breakdown-rollup.js";
import { dayBucket, localDayNumber } from "../day-rollup.js";
import { DIALECTS } from "../dialects.js";
import type { NamedRows } from "../named.js";
import { int, type Params } from "../params.js";
import type { Scope } from "../parts.js";
import { tableRead } from "../relation.js";
import { SESSION_DIMENSION_COLUMNS } from "../tables.js";
import type { RollupPart } from "./trends-rollup-parts.js";

const ROLLUP_MATHS: readonly TrendsMath[] = ["total", "unique_visitors", "avg_per_visitor"];

/** The breakdown rollups' column of a dimension, or null when they are not kept for it. */
export function breakdownRollupDim(dim: Dimension | undefined): BreakdownRollupDim | null {
  if (dim === undefined || !(dim in SESSION_DIMENSION_COLUMNS)) return null;
  const column = SESSION_DIMENSION_COLUMNS[dim as keyof typeof SESSION_DIMENSION_COLUMNS];
  return (BREAKDOWN_ROLLUP_DIMS as readonly string[]).includes(column) ? (column as BreakdownRollupDim) : null;
}

/**
 * Up to where (epoch ms, a local midnight) the breakdown rollups answer a series, or null when they
 * do not: the store keeps none, the spec has no breakdown by a kept attribute, the series is of a
 * skipped event name or counts anything but events and visitors, a filter asks for more, or the
 * interval is shorter than a day. A comparison's period is planned apart (trends.ts): its buckets
 * and its total each read the rows as far as this says of their own range.
 */
export function trendsBreakdownRollupTo(
  spec: Pick<TrendsSpec, "filters" | "breakdown">,
  series: Pick<TrendsSeries, "math" | "filters" | "event">,
  o: { rollups: boolean; interval: string; range: { from: number; to: number }; through: number | undefined; timezone: string },
): number | null {
  const plain =
    breakdownRollupDim(spec.breakdown) !== null &&
    !(BREAKDOWN_ROLLUP_SKIPPED_EVENTS as readonly string[]).includes(series.event) &&
    ROLLUP_MATHS.includes(series.math) &&
    parseFilters(spec.filters ?? "").length === 0 &&
    parseFilters(series.filters ?? "").length === 0 &&
    (o.interval === "day" || o.interval === "week" || o.interval === "month");
  return activityRollupTo(o.range, { rollups: o.rollups, filtered: !plain, through: o.through, timezone: o.timezone });
}

/**
 * One series' bucket rows and/or totals per breakdown value (trends.ts TrendsRow) over `range`, from
 * the breakdown rollups before `rollupTo` and from events after it. The top `topN` values by events
 * are this range's, unless `o.top` names the row set of another period's (a comparison keeps the
 * current period's values); `o.tag` keeps the named rows of each call apart; `o.period`, when set,
 * is printed as the rows' `period` column.
 */
export function breakdownRollupSeries(
  o: {
    s: Scope;
    p: Params;
    named: NamedRows;
    i: number;
    tag?: string;
    event: string;
    math: TrendsMath;
    interval: "day" | "week" | "month";
    dim: BreakdownRollupDim;
    topN: number;
    top?: string;
    period?: number;
    /** The bucket rows, the totals, or both (trends-rollup-parts.ts). */
    rows?: RollupPart["rows"];
  },
  range: { from: number; to: number },
  rollupTo: number,
  timezone: string,
): { statements: string[]; top: string } {
  const { s, p, named } = o;
  const d = DIALECTS.duckdb;
  const id = `${int(o.i)}${o.tag ?? ""}`;
  const dA = localDayNumber(timezone, range.from);
  const dT = localDayNumber(timezone, rollupTo);
  const key = (day: string) => dayBucket(o.interval, day);
  const mine = [`tz = ${p.add(timezone)}`, `name = ${p.add(o.event)}`, `dim = ${p.add(o.dim)}`];
  const rows = named.define(
    `brr${id}`,
    `SELECT value, lday, prev_lday, visitors, events FROM ${tableRead(s, BREAKDOWN_ROLLUP_TABLE, [...mine, `lday >= ${dA}`, `lday < ${dT}`])}`,
  );
  const tail = rollupTo < range.to;
  const tailRead = () =>
    tableRead(s, "events", [`ts >= ${p.ts(rollupTo)}`, `ts < ${p.ts(range.to)}`, `name = ${p.add(o.event)}`]);
  let top = o.top;
  if (top === undefined) {
    // The top N values by events (ties by value), as trends.ts ranks them from events.
    const counts = [`SELECT value AS v, sum(events) AS n FROM ${rows} AS r GROUP BY v`];
    if (tail) counts.push(`SELECT ${o.dim} AS v, count(*) AS n FROM ${tailRead()} GROUP BY v`);
    top = named.define(
      `brt${id}`,
      `SELECT v FROM (${counts.join(" UNION ALL ")}) AS c GROUP BY v ORDER BY sum(n) DESC, v ${d.limit(int(o.topN), 0)}`,
    );
  }
  const topRows = top;
  const bv = (x: string) =>
    `CASE WHEN ${x} IN (SELECT v FROM ${topRows} AS tv) THEN ${x} ELSE ${p.add(OTHER_BREAKDOWN_VALUE)} END`;
  // S: the visitors whose share the rows cannot give, and their events of the range.
  const who = [`SELECT vkey FROM ${tableRead(s, BREAKDOWN_MULTI_TABLE, mine)}`];
  if (tail) who.push(`SELECT vkey FROM ${tailRead()}`);
  const es = named.define(
    `bre${id}`,
    `SELECT vkey, ${o.dim} AS value, ${s.bucket(o.interval, "ts")} AS k, ts < ${p.ts(rollupTo)} AS pre FROM ${tableRead(
      s,
      "events",
      [`ts >= ${p.ts(range.from)}`, `ts < ${p.ts(range.to)}`, `name = ${p.add(o.event)}`, `vkey IN (${who.join(" UNION ALL ")})`],
    )}`,
  );
  // Per (value or "$other", bucket): u visitors (the rows' per-value count, then S's swap), n events,
  // and ut the same visitors over the whole range (each on their first day of it: prev before it).
  const swap = `${d.uniq("vkey")} - count(DISTINCT struct_pack(v := vkey, x := value)) FILTER (WHERE pre)`;
  const value = (u: string, n: string) =>
    o.math === "total" ? `CAST(${n} AS DOUBLE)` : o.math === "unique_visitors" ? `CAST(${u} AS DOUBLE)` : d.div(n, u);
  const period = o.period === undefined ? "" : `${int(o.period)} AS period, `;
  // The rows' sums and S's swap, per value or "$other" (and bucket): `u` counts the rows whose
  // visitor is `counted` there.
  const summed = (name: string, u: string, byBucket: boolean, counted: string) => {
    const k = byBucket ? ", k" : "";
    return named.define(
      name,
      `SELECT bv${k}, coalesce(sum(${u}), 0) AS ${u}, sum(n) AS n FROM (` +
        `SELECT ${bv("value")} AS bv${byBucket ? `, ${key("lday")} AS k` : ""}, sum(visitors) FILTER (WHERE ${counted}) AS ${u}, sum(events) AS n FROM ${rows} AS r GROUP BY ALL` +
        ` UNION ALL SELECT ${bv("value")} AS bv${k}, ${swap} AS ${u}, count(*) FILTER (WHERE NOT pre) AS n FROM ${es} AS e GROUP BY ALL` +
        `) AS a GROUP BY bv${k}`,
    );
  };
  const statements: string[] = [];
  if (o.rows !== "totals") {
    const cells = summed(`brc${id}`, "u", true, `prev_lday < ${dA} OR ${key("prev_lday")} < ${key("lday")}`);
    statements.push(
      `SELECT ${int(o.i)} AS series, ${period}bv, 0 AS is_total, ${d.label(o.interval, "k")} AS bucket, ${value("u", "n")} AS value FROM ${cells} AS sb`,
    );
  }
  if (o.rows !== "buckets") {
    const totals = summed(`brs${id}`, "ut", false, `prev_lday < ${dA}`);
    statements.push(
      `SELECT ${int(o.i)} AS series, ${period}bv, 1 AS is_total, '' AS bucket, ${value("ut", "n")} AS value FROM ${totals} AS st`,
    );
  }
  return { statements, top: topRows };
}
