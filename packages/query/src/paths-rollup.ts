// Paths rollups (DuckDB): the page paths insight without a start or an end point (every visit's
// first pages: the paths screen as it opens) answered from a few rows per day instead of sorting
// every pageview of the range by visit. This module owns the table's shape and the SQL that fills
// it; the read sits beside the paths compiler (insights/paths-rollup.ts).
//
// `paths_rollup`: per property, timezone and local day of a visit's start, the visitors whose
// visits starting that day made a path's node (kind 1: a page at a position) or edge (kind 0: a
// page and the next at a position), counted by the last earlier local day on which the same visitor
// made the same node or edge (prev_lday, NO_DAY when none), for positions 1 to PATHS_LIMITS.maxSteps
// of each visit's whole path (its pages in time order, ties by path, repeats collapsed). Kind 2
// rows count the visits with a path (its pageviews) per day. A path of n steps is the first n of
// those positions, so one set of rows answers every step count.
//
// Why it stays exact: as in activity_rollup, a visitor with a node in visits starting in a run of
// whole local days I has exactly one day in I whose prev_lday lies before I. What the rows cannot
// say is a visit the range cuts (started before it, or still going at its end or at the mark) and
// the visits after the mark: the read swaps the contribution of those visits' visitors for what
// their own events give (insights/paths-rollup.ts).
//
// Filled with the day rollups, under the same mark (duckdb-day-rollup.ts): the first fill covers
// every settled day for a share of the visitors at a time (their rows add up), later steps the
// visits that start in their days, with those visitors' earlier visits read to chain prev_lday.
// Rows key visits by their start (sessions.start_ts), which is what moves the mark back when a
// visit gains events.
//
// Pages are numbered per property in `paths_pages` (each fill numbers the pages it meets first):
// the rows hold the numbers, so a read groups integers (at 10M events 36 ms for the top edges
// against 87 with the paths themselves) and names only what it sends.

import { PATHS_LIMITS } from "@lookout/schema";
import { NO_DAY } from "./activity-rollup.js";
import { type DayNumberSql, dayNumberSql } from "./day-rollup.js";
import type { DerivedColumnType } from "./tables.js";

export const PATHS_ROLLUP_TABLE = "paths_rollup";
export const PATHS_PAGES_TABLE = "paths_pages";

/** The answer's row kinds (insights/paths.ts PathsCountRow): an edge, a node, the count of paths. */
export const PATHS_KIND = { edge: 0, node: 1, paths: 2 } as const;

export const PATHS_ROLLUP_COLUMNS = {
  pkey: "key",
  tz: "string",
  /** Local day number of the visits' start, as in day_rollup. */
  lday: "int32",
  /** PATHS_KIND. */
  kind: "int32",
  /** 1-based position in the path (0 for the count of paths). */
  step: "int32",
  /** The page's number (paths_pages). */
  source: "int32",
  /** The next page's number for an edge; 0 for a node and for the count. */
  target: "int32",
  /** The same visitor's last earlier day with this node or edge, NO_DAY when none (and for the count). */
  prev_lday: "int32",
  /** Distinct visitors (visits, for the count). */
  visitors: "int64",
} as const satisfies Record<string, DerivedColumnType>;

/** Each page path of a property with its number (from 1; a read numbers pages it does not find below 0). */
export const PATHS_PAGES_COLUMNS = {
  pkey: "key",
  page: "string",
  id: "int32",
} as const satisfies Record<string, DerivedColumnType>;

/** DuckDB: a list's elements without consecutive repeats. */
export const collapseList = (a: string) => `list_filter(${a}, (x, i) -> i = 1 OR x <> ${a}[i - 1])`;

/**
 * Per visit: its visitor (`vkey`), the `keep` columns of `visits` and its path of page numbers cut
 * to `steps` (`path`), from its rows in `events` (a FROM item and its conditions, with `ts`, the
 * page `path`, NULL for rows that are no pageview, and its number `pid`), in order of time then
 * page, as the paths statement orders them; visits without a pageview left out. `visits` (skey,
 * vkey and the kept columns): the visits to walk, or null for every visit of the events (its
 * visitor from them), those that pass `having` if given.
 */
export function visitPathsSql(
  events: string,
  visits: string | null,
  keep: readonly string[],
  steps: number,
  having?: string,
): string {
  const cut = (items: string) => `list_slice(${collapseList(items)}, 1, ${Math.trunc(steps)}) AS path`;
  const ordered =
    "list_transform(list_filter(list_sort(list(struct_pack(t := epoch_ms(ts), i := path, d := pid))), x -> x.i IS NOT NULL), x -> x.d)";
  if (visits === null) {
    const kept = ["count(path) > 0", ...(having === undefined ? [] : [having])].join(" AND ");
    return `SELECT vkey, ${cut("items")} FROM (SELECT any_value(vkey) AS vkey, ${ordered} AS items FROM ${events} GROUP BY skey HAVING ${kept}) AS it`;
  }
  const items = `SELECT skey, ${ordered} AS items FROM ${events} GROUP BY skey HAVING count(path) > 0`;
  return `SELECT ${["vkey", ...keep].map((c) => `vs.${c}`).join(", ")}, ${cut("it.items")} FROM (${items}) AS it JOIN ${visits} AS vs USING (skey)`;
}

/**
 * One row per node and edge of each path of `paths` (vkey, `by` columns and path): kind, step,
 * source and target (0 for a node), each visitor's repeats (two visits with the same page at the
 * same position) kept, for the caller to count distinct or not.
 */
export function pathPositionsSql(paths: string, by: readonly string[]): string {
  const cols = ["vkey", ...by].join(", ");
  const at = `SELECT ${cols}, path, unnest(generate_series(1, len(path))) AS k FROM (${paths}) AS pp`;
  return (
    `SELECT ${cols}, ${PATHS_KIND.node} AS kind, k AS step, path[k] AS source, 0 AS target FROM (${at}) AS n1 ` +
    `UNION ALL SELECT ${cols}, ${PATHS_KIND.edge} AS kind, k AS step, path[k] AS source, path[k + 1] AS target FROM (${at}) AS e1 WHERE k < len(path)`
  );
}

/**
 * The INSERT that numbers the pages of property key $pkey not numbered yet, from its pageviews
 * (from $from on, when `later`: a later step's visits start then): run before the rows' INSERT.
 */
export function pathsPagesInsert(later: boolean): string {
  const numbered = `SELECT page FROM ${PATHS_PAGES_TABLE} WHERE pkey = $pkey`;
  return (
    `INSERT INTO ${PATHS_PAGES_TABLE} SELECT $pkey, page, CAST(coalesce((SELECT max(id) FROM ${PATHS_PAGES_TABLE} WHERE pkey = $pkey), 0) + row_number() OVER (ORDER BY page) AS INTEGER) ` +
    `FROM (SELECT DISTINCT path AS page FROM events WHERE pkey = $pkey AND name = 'pageview'${later ? " AND ts >= $from" : ""}) AS np WHERE page NOT IN (${numbered})`
  );
}

/**
 * The INSERT that fills the rows of property key $pkey in timezone $tz (bound by the caller) for
 * the visits that start before $to: with `share`, every such visit of a share of the visitors by
 * their key's hash (the first fill: the table holds no rows of the pair yet; binds $pkey, $tz,
 * $to); without, the days from local day $lday of the visitors of visits starting in [$from, $to)
 * (a later step: their earlier visits chain prev_lday; binds $from and $lday too). A visit's path
 * is all its pageviews, also those after $to: a visit that gains events moves the mark back to its
 * start. `firstMs` is the property's earliest visit start: the local days lie between it and `toMs`.
 * The pages are numbered already (pathsPagesInsert).
 */
export function pathsRollupInsert(tz: string, firstMs: number, toMs: number, share?: { parts: number; part: number }): string {
  const lday: DayNumberSql = dayNumberSql(tz, firstMs, toMs);
  /** The visitors the fill is for, by their key column `v`. */
  const who = (v: string) =>
    share === undefined
      ? ` AND ${v} IN (SELECT vkey FROM sessions WHERE pkey = $pkey AND start_ts >= $from AND start_ts < $to)`
      : share.parts > 1
        ? ` AND hash(${v}) % ${Math.trunc(share.parts)} = ${Math.trunc(share.part)}`
        : "";
  const visits = `(SELECT skey, vkey, ${lday("start_ts")} AS lday FROM sessions WHERE pkey = $pkey AND start_ts < $to${who("vkey")})`;
  const events =
    `(SELECT e.skey, e.ts, e.path, pg.id AS pid FROM events AS e JOIN ${PATHS_PAGES_TABLE} AS pg ON pg.pkey = $pkey AND pg.page = e.path ` +
    `WHERE e.pkey = $pkey AND e.name = 'pageview'${who("e.vkey")}) AS ev`;
  const paths = visitPathsSql(events, "vs", ["lday"], PATHS_LIMITS.maxSteps);
  const chained =
    `SELECT lday, kind, step, source, target, coalesce(lag(lday) OVER (PARTITION BY vkey, kind, step, source, target ORDER BY lday), ${NO_DAY}) AS prev_lday ` +
    `FROM (SELECT DISTINCT * FROM (${pathPositionsSql("SELECT * FROM pa", ["lday"])}) AS r0) AS r`;
  const inSpan = share === undefined ? " WHERE lday >= $lday" : "";
  return (
    `INSERT INTO ${PATHS_ROLLUP_TABLE} WITH vs AS MATERIALIZED ${visits}, pa AS MATERIALIZED (${paths}) ` +
    `SELECT $pkey, $tz, lday, kind, step, source, target, prev_lday, count(*) FROM (${chained}) AS c${inSpan} GROUP BY ALL ` +
    `UNION ALL SELECT $pkey, $tz, lday, ${PATHS_KIND.paths}, 0, 0, 0, ${NO_DAY}, count(*) FROM pa${inSpan} GROUP BY lday ORDER BY 3, 4, 5, 6, 7`
  );
}
