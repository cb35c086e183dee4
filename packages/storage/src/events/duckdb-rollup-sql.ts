// SQL pieces both rollup steps share (duckdb-rollup.ts recomputes visits from all their events,
// duckdb-rollup-merge.ts adds new events to the rows already stored): the rollup column lists and
// a visit's row aggregated from its events.
import {
  NO_PREVIOUS_VISIT,
  NON_CUSTOM_EVENT_NAMES,
  SESSION_ATTRIBUTE_COLUMNS,
  SESSION_COLUMNS,
  SESSION_DIMENSION_COLUMNS,
  SESSION_EVENT_COLUMNS,
  SESSION_PAGE_COLUMNS,
} from "@lookout/query";

/** The event names that are not custom events, as a SQL list. */
export const CUSTOM = NON_CUSTOM_EVENT_NAMES.map((n) => `'${n}'`).join(", ");
/** The prev_* of a visit with no earlier one. */
export const EPOCH = `TIMESTAMP '${NO_PREVIOUS_VISIT}'`;
export const DIM_COLUMNS = Object.values(SESSION_DIMENSION_COLUMNS);

const baseOf = (cols: object) => Object.keys(cols).filter((c) => !c.startsWith("prev_"));
export const S_ALL = Object.keys(SESSION_COLUMNS).join(", ");
export const S_BASE = baseOf(SESSION_COLUMNS).join(", ");
export const P_ALL = Object.keys(SESSION_PAGE_COLUMNS).join(", ");
export const P_BASE = baseOf(SESSION_PAGE_COLUMNS).join(", ");
export const E_ALL = Object.keys(SESSION_EVENT_COLUMNS).join(", ");
export const E_BASE = baseOf(SESSION_EVENT_COLUMNS).join(", ");

/** The event columns the rollups read. */
export const ROLLUP_EVENT_COLUMNS = [
  "property",
  "pkey",
  "skey",
  "vkey",
  "ts",
  "name",
  "path",
  "engaged_ms",
  "revenue",
  ...SESSION_ATTRIBUTE_COLUMNS,
];

/** What a page's row sums over the events of `src` (aliased e): its pageviews and engaged time. */
export const PAGE_SUMS =
  "count_if(e.name = 'pageview')::INTEGER AS pageviews, " +
  "coalesce(sum(e.engaged_ms) FILTER (WHERE e.name = 'engagement'), 0)::DOUBLE AS engaged_ms";
/** What a custom event's row sums over the events of `src` (aliased e). */
export const EVENT_SUMS = "count(*)::INTEGER AS events, coalesce(sum(e.revenue), 0)::DOUBLE AS revenue";

// A visit's attributes are those of its first event. One min() over a struct that starts with ts
// and holds every attribute picks that event whole, ties in the same millisecond broken by value,
// so recomputing a visit always yields the same row (step 5 compares rows); one aggregate instead
// of an arg_min per attribute, about half the cost of this step.
export function sessionAgg(src: string): string {
  const first = `min({${["ts", ...SESSION_ATTRIBUTE_COLUMNS].map((c) => `'${c}': ${c}`).join(", ")}})`;
  const attrs = SESSION_ATTRIBUTE_COLUMNS.map((c) => `first.${c} AS ${c}`).join(", ");
  const pv = "count_if(name = 'pageview')";
  const custom = `count_if(name NOT IN (${CUSTOM}))`;
  return (
    `SELECT * EXCLUDE (first), ${attrs} FROM (` +
    `SELECT property, any_value(pkey) AS pkey, skey, any_value(vkey) AS vkey, min(ts) AS start_ts, max(ts) AS end_ts, ` +
    `epoch(max(ts) - min(ts)) AS duration, ${pv}::INTEGER AS pageviews, ${custom}::INTEGER AS events, ` +
    `(${pv} = 1 AND ${custom} = 0) AS bounce, ` +
    `coalesce(sum(engaged_ms) FILTER (WHERE name = 'engagement'), 0)::DOUBLE AS engaged_ms, ` +
    `coalesce(arg_min(path, row(ts, path)) FILTER (WHERE name = 'pageview'), '') AS entry_page, ` +
    `coalesce(arg_max(path, row(ts, path)) FILTER (WHERE name = 'pageview'), '') AS exit_page, ` +
    `${first} AS first FROM ${src} GROUP BY property, skey)`
  );
}

/**
 * Replaces rows of one rollup with `all`, the touched visits' rows as they must be, written by the
 * step through batch `upto` (their `rolled`). Every row being replaced has its key in `all` (events
 * are only ever added, so a visit, a visit's page or a visit's custom event never goes away), so
 * deleting by the keys of `all` removes exactly the old rows; `stored` is a predicate on those
 * (t) that narrows the scan. Rows are deleted by key, never by a rowid read earlier in the
 * transaction: a checkpoint running meanwhile on the writer connection may vacuum the table and
 * move rowids, and deleting by stale rowids left duplicate visits behind (54 of 2.4M after
 * loading 10M events; reproduced with appends racing checkpoints). Unchanged rows are rewritten
 * too: picking out the changed ones (an EXCEPT over every column) cost more than rewriting the
 * few unchanged rows there are (a step's rows are its own visits, which always change, plus the
 * same visitors' later visits, which are rare).
 */
export function replaceRows(table: string, all: string, cols: string, key: string[], stored: string, upto: string): string[] {
  const on = key.map((k) => `t.${k} = c.${k}`).join(" AND ");
  return [
    `DELETE FROM ${table} t USING ${all} c WHERE ${on} AND ${stored}`,
    `INSERT INTO ${table} (${cols}, rolled) SELECT ${cols}, ${upto} FROM ${all} ORDER BY start_ts`,
  ];
}

/**
 * The stored rows of a step's visits, as a predicate on a rollup's rows (`t`: their alias and a
 * dot, or nothing): rows of visits that start at `startUs` (epoch µs) or later, written by the step
 * through batch `rolled` or later. A step rewrites every row of a visit it touches, so a visit's
 * rows all sit where its last step appended them, and the zone maps of `rolled` skip the rest of
 * the table. "false" when either is unknown: nothing of those visits is stored.
 */
export function storedRows(startUs: unknown, rolled: unknown): (t?: string) => string {
  if (typeof startUs !== "bigint" || typeof rolled !== "bigint") return () => "false";
  return (t = "") => `${t}start_ts >= make_timestamp(${startUs.toString()}) AND ${t}rolled >= ${rolled.toString()}`;
}
