// Page paths from ClickHouse's path rows (clickhouse-path-days.ts): the statement that answers a
// spec the paths rollups' rule admits (paths-rollup.ts pathsRollupTo: pages, no anchor, no filter,
// from a local midnight), as DuckDB's paths-rollup.ts answers it, printed for 18.16 (no named
// subqueries, no window functions: one pass, arrays).
//
// The sum is the same: the rows' visitors for the visits starting in [A, R) (whole local days, and
// the part before R of the one R falls in when R is the rows' UTC bound: a local day's rows are
// per UTC batch, and a visitor counts at their first local day in the range), and for
// the set S of visitors whose share the rows do not give (a pageview from R to the range's end, or
// a visit over A or over R, from the settled visits) what they add to the answer (their visits'
// paths cut to the range) less what the rows counted for them (the paths of their visits starting
// in [A, R)). Both come from `visit_path_visits` (each settled visit's path as the rows count it)
// for those visits, and from `events` only for the rest: a visit over A, one starting at or after
// R, and one that reaches the range's end; all of those lie in two windows of the range (its first
// two days and from two days before its end or R on), so S's history is never walked.
import { PATHS_LIMITS } from "@lookout/schema";
import {
  CH_TMS,
  chOrderedItems,
  chPathOf,
  pathPositionsArray,
  VISIT_PATH_VISITS_TABLE,
  VISIT_PATHS_TABLE,
} from "../clickhouse-path-days.js";
import { DONE_TABLES, settledBatchList, WINNERS } from "../clickhouse-visits.js";
import type { SettledVisits } from "../compiled.js";
import { localDayNumber } from "../day-rollup.js";
import type { Dialect } from "../dialects.js";
import { int, type Params } from "../params.js";
import type { Scope } from "../parts.js";
import { PATHS_KIND } from "../paths-rollup.js";
import { tableRead } from "../relation.js";

const DAY = 86_400_000;

/**
 * The answer's statement (PathsCountRow) for `steps` steps over [from, to), the rows read for the
 * visits that start in [from, rollupTo): `from` a local midnight, `rollupTo` one or the UTC
 * midnight of the first day without path rows (pathRowsThrough).
 */
export function pathDaysStatement(
  s: Scope,
  d: Dialect,
  p: Params,
  o: { from: number; to: number; rollupTo: number; steps: number; rowCap: number; settled?: SettledVisits | undefined },
): string {
  const n = int(o.steps);
  // The settled batches of the days read (a batch id is its step's base plus its UTC day), when
  // known at compile time: the whole list, once per subquery that reads settled rows, took 18.16
  // about 0.6 s to analyse at 10M events (a thousand batches, nine times). Every settled visit
  // read starts before R, so its batch's day is before R's UTC day ends (R may be a UTC midnight
  // inside a local day: pathRowsThrough).
  const endDay = Math.ceil(o.rollupTo / DAY);
  const winners = o.settled ? settledBatchList(o.settled, Math.floor(o.from / DAY) - 3, endDay) : WINNERS;
  const A = p.ts(o.from);
  const R = p.ts(o.rollupTo);
  const TO = p.ts(o.to);
  const { edge, node, paths } = PATHS_KIND;
  // Visits over a midnight X (started before it, an event at or after it), from the settled
  // visits that start within two days before it (a settled visit is its start day and the next:
  // clickhouse-settle.ts).
  const over = (x: string) =>
    `SELECT vkey FROM ${tableRead(s, DONE_TABLES.visits, [`day >= toDate(${x}) - 2`, `day <= toDate(${x})`, `batch IN ${winners}`, `start_ts < ${x}`, `end_ts >= ${x}`])}`;
  const S =
    `SELECT ${d.eventVkey} AS sv FROM ${tableRead(s, "events", [`ts >= ${R}`, `ts < ${TO}`, "name = 'pageview'"])} ` +
    `UNION ALL SELECT vkey AS sv FROM (${over(A)}) UNION ALL SELECT vkey AS sv FROM (${over(R)})`;
  // What the rows counted for them: their settled visits starting in [A, R), whole (-1); and, but
  // for those that reach the range's end, what each adds (+1): the same path.
  const Ams = int(o.from);
  const TOms = int(o.to);
  const theirs = (where: string[]) =>
    tableRead(s, VISIT_PATH_VISITS_TABLE, [
      `tz = ${p.add(s.timezone)}`,
      `batch IN ${winners}`,
      `vkey IN (${S})`,
      `start_ms >= ${Ams}`,
      `start_ms < ${int(o.rollupTo)}`,
      ...where,
    ]);
  // Each settled visit: its path on the side of what they add (w_p) when it ends before the
  // range's end, and on the side of what the rows counted (w_m).
  const settled = `SELECT skey AS w_skey, vkey AS w_vkey, arraySlice(path, 1, ${n}) AS w_path, toInt8(end_ms < ${TOms}) AS w_p, toInt8(1) AS w_m FROM ${theirs([])}`;
  // What the rest of their visits add, from their events: a visit over A (its first two days in
  // the range), one that starts at or after R, and one of the rows' that reaches the range's end
  // (it started less than two days before it). So only the events of two windows are read. A
  // settled visit ends before the UTC day after its start day's next (clickhouse-path-days.ts's
  // cut), so none of those read reaches a range that ends after that: from R on is enough then.
  const cutBy = (endDay + 1) * DAY;
  const lo = o.to >= cutBy ? o.rollupTo : Math.min(o.rollupTo, o.to - 2 * DAY);
  const windows = `(ts < ${p.ts(o.from + 2 * DAY)} OR ts >= ${p.ts(lo)})`;
  // Those the settled visits give are left out: the settled visits with events in the windows
  // start in them or up to two days before (the cut), which the visits' sort key finds.
  const items =
    `SELECT ${d.eventSkey} AS e_skey, any(${d.eventVkey}) AS e_vkey, ${chOrderedItems(CH_TMS, "path", "name = 'pageview'")} AS e_items ` +
    `FROM ${tableRead(s, "events", [`ts >= ${A}`, `ts < ${TO}`, windows, `${d.eventVkey} IN (${S})`])} GROUP BY e_skey ` +
    `HAVING e_skey NOT IN (SELECT skey FROM ${theirs([`end_ms < ${TOms}`, `(start_ms < ${int(o.from + 2 * DAY)} OR start_ms >= ${int(lo - 2 * DAY)})`])})`;
  const rest = `SELECT e_skey AS w_skey, e_vkey AS w_vkey, ${chPathOf("e_items", n)} AS w_path, toInt8(1) AS w_p, toInt8(0) AS w_m FROM (${items})`;
  const pathsOf = `SELECT w_skey, w_vkey, w_path, w_p, w_m FROM (${settled} UNION ALL ${rest})`;
  // Per visitor and node or edge (a visit's count of paths keyed by the visit): +1 when only what
  // they add has it, -1 when only what the rows counted has it (each position once, not once per side).
  const positions =
    `SELECT w_vkey, x.1 AS kind, x.2 AS step, x.3 AS src, x.4 AS tgt, max(w_p) - max(w_m) AS sg FROM (${pathsOf}) ` +
    `ARRAY JOIN ${pathPositionsArray("w_path", `arrayFilter(x -> length(w_path) > 0, [(toUInt8(${paths}), toUInt8(0), toString(w_skey), '')])`)} AS x ` +
    "GROUP BY w_vkey, kind, step, src, tgt HAVING sg != 0";
  const swap = `SELECT kind, step, if(kind = ${paths}, '', src) AS source, tgt AS target, sum(sg) AS v FROM (${positions}) GROUP BY kind, step, source, target`;
  const lA = int(localDayNumber(s.timezone, o.from));
  const rowsRead = tableRead(s, VISIT_PATHS_TABLE, [
    `tz = ${p.add(s.timezone)}`,
    `batch IN ${winners}`,
    `lday >= ${lA}`,
    // The local day R falls in too when R is not a local midnight: its batches hold its visits up to R.
    `lday <= ${int(localDayNumber(s.timezone, o.rollupTo - 1))}`,
    `prev_lday < ${lA}`,
    `((kind = ${edge} AND step < ${n}) OR (kind = ${node} AND step <= ${n}) OR kind = ${paths})`,
  ]);
  // The rows as they are, grouped once with the swap's.
  const fromRows = `SELECT kind, step, source, target, toInt64(visitors) AS v FROM ${rowsRead}`;
  const summed =
    `SELECT kind, step, source, target, sum(v) AS t FROM (${fromRows} UNION ALL ${swap}) ` +
    `GROUP BY kind, step, source, target HAVING t > 0 OR kind = ${paths}`;
  const all =
    `SELECT groupArrayIf((toInt64(step), source, target, t), kind = ${edge}) AS edges, groupArrayIf((toInt64(step), source, t), kind = ${node}) AS nodes, ` +
    `sumIf(t, kind = ${paths}) AS pc FROM (${summed})`;
  const { threshold, top } = chTopEdges("edges");
  const rows =
    `arrayConcat(arrayMap(e -> (toUInt8(${edge}), e.1, e.2, e.3, e.4), top), ` +
    `arrayMap(x -> (toUInt8(${node}), x.1, x.2, '', x.3), arrayFilter(x -> has(items, x.2), nodes)), [(toUInt8(${paths}), toInt64(0), '', '', pc)])`;
  return (
    "SELECT r.1 AS kind, r.2 AS step, r.3 AS source, r.4 AS target, r.5 AS visitors FROM (" +
    `SELECT ${threshold} AS th, ${top} AS top, arrayConcat(arrayMap(e -> e.2, top), arrayMap(e -> e.3, top)) AS items, ${rows} AS rs FROM (${all})` +
    `) ARRAY JOIN rs AS r LIMIT 0, ${int(o.rowCap)}`
  );
}

/**
 * The top PATHS_LIMITS.maxEdges of `edges` (an array of (step, source, target, visitors) tuples),
 * ordered as the other dialect's ORDER BY: those with at least the visitors of the Nth most
 * (`threshold`, a sort of numbers; 0 when there are fewer, to be named `th`), then sorted by the
 * tuple. Sorting every edge by the tuple took 0.3 s at 10M events.
 */
export function chTopEdges(edges: string): { threshold: string; top: string } {
  const max = int(PATHS_LIMITS.maxEdges);
  return {
    threshold: `arrayReverseSort(arrayMap(e -> e.4, ${edges}))[${max}]`,
    // th passed as an array: a lambda that names a column of its SELECT reads it wrongly on 18.16
    // under the outer ARRAY JOIN (every edge kept, or an allocation of 256 GiB).
    top: `arraySlice(arraySort(e -> (-toInt64(e.4), e.1, e.2, e.3), arrayFilter((e, t) -> e.4 >= t, ${edges}, arrayResize([th], length(${edges}), th))), 1, ${max})`,
  };
}
