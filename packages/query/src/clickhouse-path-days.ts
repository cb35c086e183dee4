// ClickHouse's path rows (issue #22): DuckDB's paths rollups (paths-rollup.ts says what a row is
// and why a range of whole local days reads them exactly) kept for ClickHouse's settled days, the
// way its day rows are (clickhouse-day-rows.ts). This module owns the table's shape, the INSERT
// that fills a (property, timezone) pair's rows for some settle batches, and where a read may take
// whole local days from them; the read sits beside the paths compiler (insights/paths-days.ts).
//
// `visit_paths`: per property, timezone, settle batch and local day of a visit's start, the
// visitors whose visits starting that day made a node (kind 1: a page at a position) or an edge
// (kind 0: a page and the next), counted by the same visitor's last earlier local day with that
// node or edge (prev_lday, 0 for none), for positions 1 to PATHS_LIMITS.maxSteps of each visit's
// whole path; kind 2 counts the visits with a path. A read sums the rows whose prev_lday lies
// before its range: each visitor once, without a distinct count.
//
// Rows are tied to settle batches as the day rows are: a batch is a UTC day's visits (by their
// start), so its rows count while it is the day's winner and go with it. A later batch's
// prev_lday depends on the earlier days, which is why an insert into a settled day unsettles every
// day after it (clickhouse-settle.ts): those days get new batches and their rows are filled again.
// Two batches can hold visits of one local day (a local day spans two UTC days): a visitor's node
// counts in the earlier UTC day's, and the other row has prev_lday = lday, which no read counts.
//
// A visit's path here is its pageviews up to the end of the UTC day after the day of its first
// event (chVisitPages), in the fill and in the read's swap alike: a visit longer than that (the
// tracker ends a visit after 30 idle minutes, so only one active for a day or more) is cut, and
// its later pages count only for a visitor the read swaps from events. Settled visits are cut
// about there too (the settle step reads a day's visits from the states of the day after).
import { PATHS_LIMITS } from "@lookout/schema";
import { chLocalDay, chUtcDate, chUtcTs, dayRowsKey } from "./clickhouse-day-rows.js";
import type { SettledVisits } from "./compiled.js";
import { PATHS_KIND } from "./paths-rollup.js";

export const VISIT_PATHS_TABLE = "visit_paths";

/** A marker row's kind: the pair's rows of its batch are all written (filled after them). */
export const PATH_MARKER_KIND = 255;

/** The columns of `visit_paths`. */
export const VISIT_PATHS_COLUMNS: readonly (readonly [string, string])[] = [
  ["property", "String"],
  ["tz", "String"],
  ["batch", "UInt64"],
  /** Local day number of the visits' start; a marker row: the batch's UTC day. */
  ["lday", "Int32"],
  /** PATHS_KIND, or PATH_MARKER_KIND. */
  ["kind", "UInt8"],
  /** 1-based position in the path (0 for the count of paths). */
  ["step", "UInt8"],
  ["source", "String"],
  /** The next page for an edge; '' for a node and the count. */
  ["target", "String"],
  /** The same visitor's last earlier local day with this node or edge (0 for none). */
  ["prev_lday", "Int32"],
  /** Visitors (visits, for the count). */
  ["visitors", "UInt64"],
];

/**
 * `visit_path_visits`: per property, timezone and settle batch, each visit with a path as the rows
 * count it, for the read's swap (insights/paths-days.ts): the settled visits of its visitors come
 * from here, not from a walk of their events.
 */
export const VISIT_PATH_VISITS_TABLE = "visit_path_visits";

export const VISIT_PATH_VISITS_COLUMNS: readonly (readonly [string, string])[] = [
  ["property", "String"],
  ["tz", "String"],
  ["batch", "UInt64"],
  ["vkey", "UInt64"],
  ["skey", "UInt64"],
  /** Its first event (epoch ms). */
  ["start_ms", "UInt64"],
  /** Its last pageview within the cut (epoch ms). */
  ["end_ms", "UInt64"],
  /** Its pages, repeats collapsed, the first PATHS_LIMITS.maxSteps. */
  ["path", "Array(String)"],
];

const DAY = 86_400_000;

/**
 * Up to where a paths read of `property` in `tz` may take visits from path rows, or undefined: the
 * UTC midnight of the pair's first day without rows. Every visit that starts before it is in a
 * batch with rows, so the rows of the local day it falls in hold that day's visits up to it
 * (insights/paths-days.ts reads them): a read in a timezone behind UTC swaps only the visitors of
 * the live UTC day, not also those of the hours of the day before in the same local day.
 */
export function pathRowsThrough(settled: SettledVisits | undefined, property: string, tz: string): number | undefined {
  const day = settled?.pathRows?.[dayRowsKey(property, tz)];
  return day === undefined ? undefined : day * DAY;
}

/** A path's positions as (kind, step, source, target) tuples: its nodes, its edges, then `extra` (an array of more). */
export function pathPositionsArray(path: string, extra: string): string {
  return (
    `arrayConcat(arrayMap(k -> (toUInt8(${PATHS_KIND.node}), toUInt8(k), ${path}[k], ''), arrayEnumerate(${path})), ` +
    `arrayMap(k -> (toUInt8(${PATHS_KIND.edge}), toUInt8(k), ${path}[k], ${path}[k + 1]), arraySlice(arrayEnumerate(${path}), 1, length(${path}) - 1)), ${extra})`
  );
}

// The paths definition in ClickHouse's functions, for every statement that walks paths (the paths
// compiler's PATHS_FUNCTIONS.clickhouse, the path rows' fill and read): one text, so the rows
// cannot drift from the answer from events.

/** An event's time in epoch milliseconds (ClickHouse keeps the milliseconds apart). */
export const CH_TMS = "toUInt64(ts) * 1000 + ts_ms";

/** A GROUP BY's items (`i`, at time `t`) in order of (time, item); of the rows that pass `cond` when given. */
export const chOrderedItems = (t: string, i: string, cond?: string) =>
  `arrayMap(x -> x.2, arraySort(${cond === undefined ? `groupArray((${t}, ${i}))` : `groupArrayIf((${t}, ${i}), ${cond})`}))`;

/** The array without consecutive repeats. */
export const chCollapse = (a: string) => `arrayFilter((x, i) -> i = 1 OR x != ${a}[i - 1], ${a}, arrayEnumerate(${a}))`;

/** `items` without consecutive repeats, its first `n`. */
export const chPathOf = (items: string, n: number) => `arraySlice(${chCollapse(items)}, 1, ${Math.trunc(n)})`;

/**
 * A GROUP BY visit's pageviews as path rows hold them, in order: those before the end of the UTC
 * day after its first event's (the one cut of a visit everywhere rows are filled or swapped, see
 * the header). The cut is passed as an array: a lambda that names a column reads it wrongly on
 * 18.16 in some statements.
 */
export function chVisitPages(): string {
  return `arrayMap(x -> x.2, ${chVisitPageTuples()})`;
}

/** chVisitPages's pageviews as (time in ms, path) tuples, in order. */
function chVisitPageTuples(): string {
  const pages = `groupArrayIf((${CH_TMS}, path), name = 'pageview')`;
  const cut = `(intDiv(min(${CH_TMS}), ${DAY}) + 2) * ${DAY}`;
  return `arraySort(arrayFilter((x, l) -> x.1 < l, ${pages}, arrayResize([${cut}], length(${pages}), ${cut})))`;
}

/** What a fill covers: some properties (printed literals) in one timezone, some batches of UTC days [firstDay, lastDay]. */
export interface PathFill {
  properties: readonly string[];
  tz: string;
  tzName: string;
  batches: readonly { day: number; batch: string }[];
  sinceDay: number;
  firstDay: number;
  lastDay: number;
}

/**
 * The INSERT of the batches' visits into `visit_path_visits` (run before the rows': the pair's
 * marker covers both): each visit with a path, its start, its last pageview and its path as the
 * rows count it. A visit's start is read from two days before the first day on (a visit is cut
 * there anyway).
 */
export function visitPathVisitsInsertSql(o: PathFill): string {
  const days = o.batches.map((b) => Math.trunc(b.day)).join(", ");
  const batches = o.batches.map((b) => BigInt(b.batch).toString()).join(", ");
  const visits =
    `SELECT property, cityHash64(session_id) AS v_skey, any(cityHash64(visitor_id)) AS v_vkey, min(${CH_TMS}) AS v_start, ` +
    `toUInt32(intDiv(v_start, ${DAY})) AS v_uday, ${chVisitPageTuples()} AS v_pages FROM events ` +
    `WHERE property IN (${o.properties.join(", ")}) AND ts >= ${chUtcTs((o.firstDay - 2) * DAY)} AND ts < ${chUtcTs((o.lastDay + 2) * DAY)} ` +
    `GROUP BY property, v_skey HAVING has([${days}], v_uday) AND length(v_pages) > 0`;
  const names = VISIT_PATH_VISITS_COLUMNS.map(([n]) => n).join(", ");
  return (
    `INSERT INTO ${VISIT_PATH_VISITS_TABLE} (${names}) SELECT property, ${o.tz}, transform(v_uday, [${days}], [${batches}], toUInt64(0)), ` +
    `v_vkey, v_skey, v_start, tupleElement(arrayElement(v_pages, -1), 1), ${chPathOf("arrayMap(x -> x.2, v_pages)", PATHS_LIMITS.maxSteps)} FROM (${visits})`
  );
}

/**
 * The INSERT of the path rows in one timezone of some properties' visits of `batches` (their UTC
 * days [firstDay, lastDay], `days` the day of each batch). `properties` and `tz` are printed
 * literals. Each of those visits' visitors' earlier visits (any day before) chain prev_lday; the
 * timezone's offsets cover the span from `sinceDay` (the first settled day) on.
 */
export function visitPathsInsertSql(o: PathFill): string {
  const lday = chLocalDay(o);
  const props = `property IN (${o.properties.join(", ")})`;
  // The visitors with an event in the days: their visits up to the span's end, earlier ones too.
  const visitors = `SELECT cityHash64(visitor_id) FROM events WHERE ${props} AND ts >= ${chUtcTs(o.firstDay * DAY)} AND ts < ${chUtcTs((o.lastDay + 1) * DAY)}`;
  const visits =
    `SELECT property, cityHash64(session_id) AS p_skey, any(cityHash64(visitor_id)) AS p_vkey, min(ts) AS p_start, ${chVisitPages()} AS p_items ` +
    `FROM events WHERE ${props} AND ts < ${chUtcTs((o.lastDay + 2) * DAY)} AND cityHash64(visitor_id) IN (${visitors}) ` +
    `GROUP BY property, p_skey HAVING toDate(p_start) <= ${chUtcDate(o.lastDay)} AND length(p_items) > 0`;
  // Plain numbers: 18.16 analyses a long list of function calls slowly. The batches' days need not
  // be consecutive: a visit of a day between them only chains prev_lday, as one before them does.
  const days = o.batches.map((b) => Math.trunc(b.day)).join(", ");
  const batches = o.batches.map((b) => BigInt(b.batch).toString()).join(", ");
  const dated =
    `SELECT property, p_skey, p_vkey, ${lday("p_start")} AS p_lday, toUInt32(toDate(p_start)) AS p_uday, toUInt8(has([${days}], p_uday)) AS p_fresh, ` +
    `if(p_fresh = 1, transform(p_uday, [${days}], [${batches}], toUInt64(0)), toUInt64(0)) AS p_batch, ` +
    `${chPathOf("p_items", PATHS_LIMITS.maxSteps)} AS p_path FROM (${visits})`;
  // Per visitor and node or edge, its (local day, UTC day, fresh, batch) in order: at one local day
  // the earlier UTC day first, whichever batches a fill covers; a visit's count of paths keyed by the visit.
  const positions = pathPositionsArray("p_path", `[(toUInt8(${PATHS_KIND.paths}), toUInt8(0), toString(p_skey), '')]`);
  const grouped =
    `SELECT property, x.1 AS p_kind, x.2 AS p_step, x.3 AS p_source, x.4 AS p_target, arraySort(groupUniqArray((p_lday, p_uday, p_fresh, p_batch))) AS ds ` +
    `FROM (${dated}) ARRAY JOIN ${positions} AS x GROUP BY property, p_vkey, p_kind, p_step, p_source, p_target HAVING max(p_fresh) = 1`;
  // Each fresh entry with the day of the entry before it (history first on a day: see the header).
  const chained =
    "arrayFilter(e -> e.4 = 1, arrayMap(i -> (ds[i].1, ds[i].4, if(i = 1, 0, ds[i - 1].1), ds[i].3), arrayEnumerate(ds)))";
  const rows =
    `SELECT property, p_kind, p_step, if(p_kind = ${PATHS_KIND.paths}, '', p_source) AS p_src, p_target, e.1 AS p_day, e.2 AS p_b, e.3 AS p_prev ` +
    `FROM (${grouped}) ARRAY JOIN ${chained} AS e`;
  const names = VISIT_PATHS_COLUMNS.map(([n]) => n).join(", ");
  return (
    `INSERT INTO ${VISIT_PATHS_TABLE} (${names}) SELECT property, ${o.tz}, p_b, p_day, p_kind, p_step, p_src, p_target, p_prev, count() ` +
    `FROM (${rows}) GROUP BY property, p_b, p_day, p_kind, p_step, p_src, p_target, p_prev`
  );
}
