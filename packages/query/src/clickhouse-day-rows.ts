// ClickHouse's day rows (issue #22): DuckDB's day rollups (day-rollup.ts says what a row is and
// why a range that starts at a local midnight reads them exactly) kept for ClickHouse's settled
// visits. This module owns the table's shape, the INSERT that fills a (property, timezone) pair's
// rows for some settle batches, and where a read may take whole days from them.
//
// Rows are tied to settle batches (clickhouse-visits.ts): a pair's rows of a UTC day's visits
// carry that day's batch, so they count exactly while the batch is the day's winner (a read binds
// the winning batches anyway) and are dropped with it once superseded. Every pair and batch filled
// also has a marker row (dimension ''), written after the rows: a read takes whole local days up to the
// first settled UTC day whose winning batch has no marker for the pair (SettledVisits.dayRows,
// storage's clickhouse-day-rows.ts computes it with the marks), and the rest from visit rows as
// before. At 10M events a country panel reads a few thousand day rows instead of 2.4M visit rows.

import { PREV_COLUMNS } from "./clickhouse-prevs.js";
import { DONE_TABLES } from "./clickhouse-visits.js";
import type { SettledVisits } from "./compiled.js";
import { offsetCase } from "./parts.js";
import { prevColumn, SESSION_DIMENSION_COLUMNS } from "./tables.js";
import { offsetSegments } from "./tz.js";

export const VISIT_DAYS_TABLE = "visit_days";
/** The (property, timezone) pairs whose day rows are kept: added when a read first asks for one. */
export const VISIT_DAYS_ZONES_TABLE = "visit_days_zones";

/** The columns of `visit_days` (the counts as the visit rows' reads sum them, so both halves of a read have one type). */
export const VISIT_DAYS_COLUMNS: readonly (readonly [string, string])[] = [
  ["property", "String"],
  ["tz", "String"],
  ["batch", "UInt64"],
  /** Local day number of the visits' start (days since 1970-01-01 in tz); a marker row: the batch's UTC day. */
  ["lday", "Int32"],
  /** ANY_DIM, a visit column, 'path' or 'name'; '' on a marker row (day-rollup.ts's `dim`). */
  ["dimension", "String"],
  ["value", "String"],
  /** Local day of the same visitor's previous visit with this value (0 for none). */
  ["prev_lday", "Int32"],
  ["visits", "UInt64"],
  ["pageviews", "UInt64"],
  ["engaged_ms", "Float64"],
  ["events", "UInt64"],
  ["bounces", "UInt64"],
  ["duration", "Float64"],
];

const DAY = 86_400_000;

/** A printed UTC instant (epoch ms, to the second) and a printed UTC date (a day number): the fills' literals. */
export const chUtcTs = (ms: number) => `toDateTime(${Math.floor(ms / 1000)}, 'UTC')`;
export const chUtcDate = (day: number) => `toDate('${new Date(day * DAY).toISOString().slice(0, 10)}')`;

/** The key of a pair in SettledVisits.dayRows. */
export const dayRowsKey = (property: string, tz: string) => JSON.stringify([property, tz]);

/**
 * Up to where a read of `property` in `tz` may take visits from day rows, or undefined: the UTC
 * midnight of the pair's first day without them. Every visit that starts before it is in a batch
 * with rows, so the rows of the local day it falls in hold that day's visits up to it (a read
 * takes them from the batches before it: day-rollup.ts): in a timezone behind UTC a read with
 * today live takes only the live UTC day's visits from visit rows, not also the settled hours of
 * the day before in the same local day (at 10M events a third of a dashboard panel's live read).
 */
export function dayRowsThrough(settled: SettledVisits | undefined, property: string, tz: string): number | undefined {
  const day = settled?.dayRows?.[dayRowsKey(property, tz)];
  return day === undefined ? undefined : day * DAY;
}

/**
 * The local day number in `tzName` of a DateTime column, for instants from the day before
 * `sinceDay` to two days after `lastDay` (UTC day numbers); 0 for the 1970 "no previous visit"
 * (and anything before 1970 locally).
 */
export function chLocalDay(o: { tzName: string; sinceDay: number; lastDay: number }): (column: string) => string {
  const segments = offsetSegments(o.tzName, o.sinceDay * DAY - DAY, (o.lastDay + 2) * DAY);
  return (c) => `toInt32(greatest(intDiv(toInt64(toUInt32(${c})) + 60 * (${offsetCase(segments, c, chUtcTs)}), 86400), 0))`;
}

/**
 * The INSERT of the day rows in one timezone of some properties' visits of `batches` (all in UTC
 * days [firstDay, lastDay]). `properties` and `tz` are printed literals; previous visits may start
 * on any day from `sinceDay` on (the first settled day), so the timezone's offsets cover that span.
 */
export function visitDaysInsertSql(o: {
  properties: readonly string[];
  tz: string;
  tzName: string;
  batches: readonly string[];
  sinceDay: number;
  firstDay: number;
  lastDay: number;
}): string {
  const lday = chLocalDay(o);
  // Plain numbers: 18.16 analyses a long list of function calls slowly.
  const batches = o.batches.map((b) => BigInt(b).toString()).join(", ");
  const own = (t: string) =>
    `${t} WHERE property IN (${o.properties.join(", ")}) AND day >= ${chUtcDate(o.firstDay)} AND day <= ${chUtcDate(o.lastDay)} AND batch IN (${batches})`;
  const group = "GROUP BY property, batch, lday, dimension, value, prev_lday";
  const dims = [
    `tuple('any', '', ${lday(prevColumn("any"))})`,
    ...Object.values(SESSION_DIMENSION_COLUMNS).map((c) => `tuple('${c}', ${c}, ${lday(prevColumn(c))})`),
  ];
  const visits =
    `SELECT property, ${o.tz} AS tz, batch, lday, dv.1 AS dimension, dv.2 AS value, dv.3 AS prev_lday, ` +
    `count() AS visits, sum(pageviews) AS pageviews, sum(engaged_ms) AS engaged_ms, sum(events) AS events, ` +
    "countIf(bounce = 1) AS bounces, sum(duration) AS duration " +
    `FROM (SELECT property, batch, ${lday("start_ts")} AS lday, pageviews, engaged_ms, events, bounce, duration, ` +
    `[${dims.join(", ")}] AS dvs FROM ${own(DONE_TABLES.visits)}) ARRAY JOIN dvs AS dv ${group}`;
  // A page or event name row sums its visit's pageviews, engagement or events, bounce and
  // duration as DuckDB's day rows do: its own pageviews and engagement (pages) or events (names).
  const visitSide =
    "(SELECT property, skey, pageviews AS v_pageviews, engaged_ms AS v_engaged_ms, events AS v_events, bounce AS v_bounce, " +
    `duration AS v_duration FROM ${own(DONE_TABLES.visits)})`;
  const child = (table: "visit_pages" | "visit_events", dim: "path" | "name") => {
    const [[prev]] = PREV_COLUMNS[table] as [[string, string]];
    const sumsOf =
      table === "visit_pages"
        ? "sum(pageviews) AS pageviews, sum(engaged_ms) AS engaged_ms, sum(v_events) AS events"
        : "sum(v_pageviews) AS pageviews, sum(v_engaged_ms) AS engaged_ms, sum(events) AS events";
    const left =
      `(SELECT property, batch, skey, ${lday("start_ts")} AS lday, ${dim} AS value, ${lday(prev)} AS prev_lday, ` +
      `${table === "visit_pages" ? "pageviews, engaged_ms" : "events"} FROM ${own(DONE_TABLES[table])})`;
    return (
      `SELECT property, ${o.tz} AS tz, batch, lday, '${dim}' AS dimension, value, prev_lday, count() AS visits, ${sumsOf}, ` +
      `countIf(v_bounce = 1) AS bounces, sum(v_duration) AS duration FROM ${left} ANY INNER JOIN ${visitSide} USING (property, skey) ${group}`
    );
  };
  const names = VISIT_DAYS_COLUMNS.map(([n]) => n).join(", ");
  return `INSERT INTO ${VISIT_DAYS_TABLE} (${names}) ${visits} UNION ALL ${child("visit_pages", "path")} UNION ALL ${child("visit_events", "name")}`;
}

/** The chart bucket key of a local day number, as ClickHouse's Dialect.bucket keys that day. */
export function chDayBucket(interval: "day" | "week" | "month", day: string): string {
  const date = `(toDate('1970-01-01') + ${day})`;
  return interval === "day"
    ? `toDateTime(${date}, 'UTC')`
    : `toDateTime(${interval === "week" ? "toMonday" : "toStartOfMonth"}(${date}), 'UTC')`;
}
