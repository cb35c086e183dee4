// ClickHouse's prev_* columns (tables.ts: the start of the same visitor's previous visit with the
// same value of a dimension), computed over rows of visits in SQL: by the settle step for the
// visits it settles and by a read for the live visits (clickhouse-visits.ts says which rows feed
// each). This module owns which prev_* each visit table carries and the two ways of computing them.
import type { DoneColumn, VisitStateTable } from "./clickhouse-visits.js";
import { prevColumn, SESSION_DIMENSION_COLUMNS } from "./tables.js";

// prev_* (tables.ts): each row's start of the same visitor's previous visit with the same value,
// so "visitors" is a filtered COUNT (prev before the period) instead of uniqExact over every visit
// of the range (230 of a country panel's 330 ms at 10M events). Visits are ordered by (start_ts,
// skey): start_ts has whole seconds here, and two visits of one visitor in one second must not
// both count as the first.
// - Settled rows store them: the settle step computes them over the step's visits and the earlier
//   settled visits of the same visitors (settledRowsSql). A later visit's prev_* depends on every
//   earlier one, so an insert into a settled day unsettles every settleable day after it too
//   (storage's clickhouse-settle.ts), and the days are settled again in order.
// - Live rows get the prev_* a query names (Dialect.derived's `reads`) computed in the read,
//   over the live visits and the settled rows of the same visitors from the read's first day on:
//   a previous visit before the period counts the same as none, so the settled days before the
//   read's bounds are not needed.
// Both group the visits of a visitor into arrays (one GROUP BY, no self-join: 18.16 computes a
// subquery again at each reference, and a join per prev column would be 21 of them).

/** Each table's prev_* columns: [column, the value column it follows, or null for "any visit"]. */
export const PREV_COLUMNS: Record<VisitStateTable, readonly (readonly [string, string | null])[]> = {
  visits: [[prevColumn("any"), null], ...Object.values(SESSION_DIMENSION_COLUMNS).map((c) => [prevColumn(c), c] as const)],
  visit_pages: [[prevColumn("path"), "path"]],
  visit_events: [[prevColumn("name"), "name"]],
};

/** A typed constant for a column a history row does not need (history rows only order and match). */
const zero = (type: string) => (type === "String" ? "''" : type === "DateTime('UTC')" ? "toDateTime(0, 'UTC')" : `to${type}(0)`);

/**
 * `fresh` (a FROM item of `property` and the `done` columns, clickhouse-visits.ts) with the prev_* columns
 * `prevs`, computed among the fresh rows and `history` (a FROM item of settled rows: the same
 * visitors' earlier visits). One GROUP BY visitor into arrays, ARRAY JOIN back to the fresh rows.
 */
export function withPrevs(
  table: VisitStateTable,
  done: readonly DoneColumn[],
  fresh: string,
  history: string,
  prevs: readonly string[],
  keep: readonly string[] = done.map(([n]) => n),
): string {
  const names = done.filter(([n]) => keep.includes(n)).map(([n]) => n);
  return prevsOver(table, names, prevRows(table, done, fresh, history, prevs, keep), prevs);
}

/**
 * The rows withPrevs orders: `fresh`'s with is_new = 1 and `history`'s with is_new = 0, each with
 * `property` and the `keep` columns of `done` (a history row only those that order and match the
 * `prevs`' values; the others are typed constants).
 */
function prevRows(
  table: VisitStateTable,
  done: readonly DoneColumn[],
  fresh: string,
  history: string,
  prevs: readonly string[],
  keep: readonly string[] = done.map(([n]) => n),
): string {
  const cols = done.filter(([n]) => keep.includes(n));
  const spec = PREV_COLUMNS[table].filter(([p]) => prevs.includes(p));
  const needed = new Set(["skey", "vkey", "start_ts", ...spec.flatMap(([, v]) => (v ? [v] : []))]);
  const names = cols.map(([n]) => n);
  const historyCols = cols.map(([n, type]) => (needed.has(n) ? n : `${zero(type)} AS ${n}`));
  return (
    `SELECT property, ${names.join(", ")}, toUInt8(1) AS is_new FROM ${fresh} ` +
    `UNION ALL SELECT property, ${historyCols.join(", ")}, toUInt8(0) AS is_new FROM ${history}`
  );
}

/**
 * The fresh rows of `rows` (a SELECT of prevRows' shape, with at least `names`) with the prev_*
 * columns `prevs` and `names`.
 */
function prevsOver(table: VisitStateTable, names: readonly string[], rows: string, prevs: readonly string[]): string {
  const spec = PREV_COLUMNS[table].filter(([p]) => prevs.includes(p));
  const [one] = spec;
  if (spec.length === 1 && one) return withOnePrev(names, rows, one);
  const arrayed = names.filter((n) => n !== "vkey");
  const grouped =
    `SELECT property, vkey, groupArray(is_new) AS a_is_new, ${arrayed.map((n) => `groupArray(${n}) AS a_${n}`).join(", ")} ` +
    `FROM (${rows}) GROUP BY property, vkey`;
  const earlier = "(s < start_ts OR (s = start_ts AND k < skey))";
  const prevExprs = spec.map(([p, v]) => {
    const lambda = v ? `(s, k, x) -> x = ${v} AND ${earlier}` : `(s, k) -> ${earlier}`;
    const arrays = v ? `a_start_ts, a_skey, a_${v}` : "a_start_ts, a_skey";
    // The latest earlier start: the first of the reverse-sorted list (an empty list's [1] is 0, 1970).
    return `toDateTime(arrayReverseSort(arrayFilter(${lambda}, ${arrays}))[1], 'UTC') AS ${p}`;
  });
  const joined = ["a_is_new AS is_new", ...arrayed.map((n) => `a_${n} AS ${n}`)];
  return `(SELECT property, ${names.join(", ")}, ${prevExprs.join(", ")} FROM (${grouped}) ARRAY JOIN ${joined.join(", ")} WHERE is_new = 1)`;
}

/**
 * withPrevs for one prev_* column (what a read asks for): the visits grouped by visitor and value,
 * each group's rows sorted by (start_ts, skey), and a row's prev_* the start of the row before it:
 * no lambda per row over the visitor's whole list (at 10M events with two live days, the lambdas
 * cost a panel about 0.17 s).
 */
function withOnePrev(names: readonly string[], rows: string, [prev, value]: readonly [string, string | null]): string {
  const keys = ["property", "vkey", ...(value ? [value] : [])];
  const carried = ["start_ts", "skey", "is_new", ...names.filter((n) => !keys.includes(n) && n !== "start_ts" && n !== "skey")];
  const at = (n: string) => `r.${carried.indexOf(n) + 1}`;
  const grouped = `SELECT ${keys.join(", ")}, arraySort(groupArray((${carried.join(", ")}))) AS a_rows FROM (${rows}) GROUP BY ${keys.join(", ")}`;
  const before = "arrayPushFront(arrayPopBack(arrayMap(x -> x.1, a_rows)), toDateTime(0, 'UTC'))";
  const out = names.map((n) => (keys.includes(n) ? n : `${at(n)} AS ${n}`));
  return `(SELECT property, ${out.join(", ")}, toDateTime(p_start, 'UTC') AS ${prev} FROM (${grouped}) ARRAY JOIN a_rows AS r, ${before} AS p_start WHERE ${at("is_new")} = 1)`;
}
