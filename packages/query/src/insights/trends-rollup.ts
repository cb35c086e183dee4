// Trends from the activity rollups (DuckDB, activity-rollup.ts): which series they can answer
// (counts of events or visitors of one unfiltered event, by day or longer) and the statement that
// answers one, the days before the day rollups' mark from activity_rollup and the rest from events.
// The trends compiler (trends.ts) prints every other series from events.
import { type Interval, parseFilters, type TrendsMath, type TrendsSeries, type TrendsSpec } from "@lookout/schema";
import { ACTIVITY_ROLLUP_TABLE, activityRollupTo, VISITOR_ACTIVITY_TABLE } from "../activity-rollup.js";
import { dayBucket, localDayNumber } from "../day-rollup.js";
import { DIALECTS } from "../dialects.js";
import type { NamedRows } from "../named.js";
import { int, type Params } from "../params.js";
import type { Scope } from "../parts.js";
import { tableRead } from "../relation.js";
import type { RollupPart } from "./trends-rollup-parts.js";

/** The maths a series can have answered by the activity rollups: counts of events and of visitors. */
const ROLLUP_MATHS: readonly TrendsMath[] = ["total", "unique_visitors", "avg_per_visitor"];

/**
 * Where the activity rollups (activity-rollup.ts) answer a series from, and up to (epoch ms, a local
 * midnight; the rest of the range from events), or null when they do not: the store keeps none,
 * the series counts anything but events and visitors, a filter or a breakdown asks for more than
 * an event name per local day, or the interval is shorter than a day. A comparison's period is
 * planned apart (trends.ts), its buckets and its total each on their own range.
 */
export function trendsRollupTo(
  spec: Pick<TrendsSpec, "filters" | "breakdown">,
  series: Pick<TrendsSeries, "math" | "filters">,
  o: { rollups: boolean; interval: Interval; range: { from: number; to: number }; through: number | undefined; timezone: string },
): number | null {
  const plain =
    ROLLUP_MATHS.includes(series.math) &&
    parseFilters(spec.filters ?? "").length === 0 &&
    parseFilters(series.filters ?? "").length === 0 &&
    !spec.breakdown &&
    (o.interval === "day" || o.interval === "week" || o.interval === "month");
  return activityRollupTo(o.range, { rollups: o.rollups, filtered: !plain, through: o.through, timezone: o.timezone });
}

/**
 * One series' bucket rows and total from the activity rollups for the days before `rollupTo`, and
 * from events after it (DuckDB). A visitor counts in a bucket on their first day in it (and in the
 * range): the rollup rows whose previous day is before both; a visitor of the days after
 * `rollupTo` counts there unless their last day before it (visitor_activity) is in the same bucket
 * and range. Events are summed.
 */
export function rollupSeries(
  o: {
    s: Scope;
    p: Params;
    named: NamedRows;
    i: number;
    event: string;
    math: TrendsMath;
    interval: "day" | "week" | "month";
    /** Keeps each call's named rows apart (a comparison's period). */
    tag?: string;
    /** Printed as the rows' `period` column when set. */
    period?: number;
    /** The bucket rows, the totals, or both (trends-rollup-parts.ts). */
    rows?: RollupPart["rows"];
  },
  range: { from: number; to: number },
  rollupTo: number,
  timezone: string,
): string[] {
  const { s, p } = o;
  const i = `${int(o.i)}${o.tag ?? ""}`;
  const d = DIALECTS.duckdb;
  const dA = localDayNumber(timezone, range.from);
  const dT = localDayNumber(timezone, rollupTo);
  // The chart bucket of a local day number: the key events' own buckets get (Dialect.bucket).
  const key = (day: string) => dayBucket(o.interval, day);
  const mine = [`tz = ${p.add(timezone)}`, `name = ${p.add(o.event)}`];
  const days = tableRead(s, ACTIVITY_ROLLUP_TABLE, [...mine, `lday >= ${dA}`, `lday < ${dT}`]);
  const parts = [
    `SELECT ${key("lday")} AS k, sum(visitors) FILTER (WHERE prev_lday < ${dA} OR ${key("prev_lday")} < ${key("lday")}) AS u, ` +
      `sum(events) AS n, sum(visitors) FILTER (WHERE prev_lday < ${dA}) AS ut FROM ${days} GROUP BY k`,
  ];
  if (rollupTo < range.to) {
    const tail = o.named.define(
      `tail${i}`,
      `SELECT vkey, ${s.bucket(o.interval, "ts")} AS k, count(*) AS n FROM ${tableRead(s, "events", [
        `ts >= ${p.ts(rollupTo)}`,
        `ts < ${p.ts(range.to)}`,
        `name = ${p.add(o.event)}`,
      ])} GROUP BY vkey, k`,
    );
    const last = `SELECT vkey, list_max(list_filter(days, x -> x < ${dT})) AS lb FROM ${tableRead(s, VISITOR_ACTIVITY_TABLE, [
      ...mine,
      `vkey IN (SELECT vkey FROM ${tail} AS tv)`,
    ])}`;
    // ut: the tail's visitors new to the range, once each (on their first tail bucket).
    parts.push(
      `SELECT k, count(*) FILTER (WHERE lb IS NULL OR lb < ${dA} OR ${key("lb")} < k) AS u, sum(n) AS n, ` +
        `count(*) FILTER (WHERE (lb IS NULL OR lb < ${dA}) AND first_k) AS ut ` +
        `FROM (SELECT t.vkey, t.k, t.n, l.lb, t.k = min(t.k) OVER (PARTITION BY t.vkey) AS first_k FROM ${tail} AS t LEFT JOIN (${last}) AS l ON l.vkey = t.vkey) AS tl GROUP BY k`,
    );
  }
  const sums = o.named.define(
    `sums${i}`,
    `SELECT k, sum(u) AS u, sum(n) AS n, sum(ut) AS ut FROM (${parts.join(" UNION ALL ")}) AS a GROUP BY k`,
  );
  const value = (u: string, n: string) =>
    o.math === "total" ? `CAST(${n} AS DOUBLE)` : o.math === "unique_visitors" ? `CAST(${u} AS DOUBLE)` : d.div(n, u);
  const head = `SELECT ${int(o.i)} AS series, ${o.period === undefined ? "" : `${int(o.period)} AS period, `}'' AS bv`;
  const out: string[] = [];
  if (o.rows !== "totals") {
    out.push(`${head}, 0 AS is_total, ${d.label(o.interval, "k")} AS bucket, ${value("u", "n")} AS value FROM ${sums} AS sb`);
  }
  if (o.rows !== "buckets") {
    out.push(
      `${head}, 1 AS is_total, '' AS bucket, ${value("coalesce(sum(ut), 0)", "coalesce(sum(n), 0)")} AS value FROM ${sums} AS st HAVING sum(n) > 0`,
    );
  }
  return out;
}
