// Page paths from ClickHouse's path rows (clickhouse-path-days.ts): the statement that answers a
// spec the paths rollups' rule admits (paths-rollup.ts pathsRollupTo: pages, no anchor, no filter,
// whole local days before the rows' bound), as DuckDB's paths-rollup.ts answers it, printed for
// 18.16 (no named subqueries, no window functions: one pass, arrays).
//
// The sum is the same: the rows' visitors for the visits starting in whole days [A, R), and for
// the set S of visitors whose share the rows do not give (a pageview from R to the range's end, or
// a visit over A or over R) what they add to the answer (their visits' paths cut to the range)
// less what the rows counted for them (the whole paths of their visits starting in [A, R)). S's
// events are read once, from A on, by a semi-join on the visitor key. Which visits run over A or
// R comes from the settled visits (both lie in settled days); a visit over A is left out of "what
// the rows counted" (it started before A), any other visit's first event from A on is its start.
import { PATHS_LIMITS } from "@lookout/schema";
import {
  CH_TMS,
  chOrderedItems,
  chPathOf,
  chVisitPages,
  pathPositionsArray,
  VISIT_PATHS_TABLE,
} from "../clickhouse-path-days.js";
import { DONE_TABLES, WINNERS } from "../clickhouse-visits.js";
import { localDayNumber } from "../day-rollup.js";
import type { Dialect } from "../dialects.js";
import { int, type Params } from "../params.js";
import type { Scope } from "../parts.js";
import { PATHS_KIND } from "../paths-rollup.js";
import { tableRead } from "../relation.js";

const DAY = 86_400_000;

/** The answer's statement (PathsCountRow) for `steps` steps over [from, to), the rows read for the local days [from, rollupTo). */
export function pathDaysStatement(
  s: Scope,
  d: Dialect,
  p: Params,
  o: { from: number; to: number; rollupTo: number; steps: number; rowCap: number },
): string {
  const n = int(o.steps);
  const A = p.ts(o.from);
  const R = p.ts(o.rollupTo);
  const TO = p.ts(o.to);
  const { edge, node, paths } = PATHS_KIND;
  // Visits over a midnight X (started before it, an event at or after it), from the settled
  // visits that start within two days before it (a settled visit is its start day and the next:
  // clickhouse-settle.ts).
  const over = (col: "skey" | "vkey", x: string) =>
    `SELECT ${col} FROM ${tableRead(s, DONE_TABLES.visits, [`day >= toDate(${x}) - 2`, `day <= toDate(${x})`, `batch IN ${WINNERS}`, `start_ts < ${x}`, `end_ts >= ${x}`])}`;
  const S =
    `SELECT ${d.eventVkey} AS sv FROM ${tableRead(s, "events", [`ts >= ${R}`, `ts < ${TO}`, "name = 'pageview'"])} ` +
    `UNION ALL SELECT vkey AS sv FROM (${over("vkey", A)}) UNION ALL SELECT vkey AS sv FROM (${over("vkey", R)})`;
  // Their events from A on: up to the range's end for what they add, and to two days past R for
  // the whole visits the rows hold (a settled visit's span).
  const until = p.ts(Math.max(o.to, o.rollupTo + 2 * DAY));
  const visits =
    `SELECT ${d.eventSkey} AS w_skey, any(${d.eventVkey}) AS w_vkey, min(${CH_TMS}) AS w_start, ` +
    `${chOrderedItems(CH_TMS, "path", `name = 'pageview' AND ts < ${TO}`)} AS w_cut, ${chVisitPages()} AS w_all ` +
    `FROM ${tableRead(s, "events", [`ts >= ${A}`, `ts < ${until}`, `${d.eventVkey} IN (${S})`])} GROUP BY w_skey`;
  const whole = `w_skey NOT IN (${over("skey", A)}) AND w_start < ${int(o.rollupTo)}`;
  const pathsOf = `SELECT w_skey, w_vkey, ${chPathOf("w_cut", n)} AS w_cp, if(${whole}, ${chPathOf("w_all", n)}, emptyArrayString()) AS w_wp FROM (${visits})`;
  const signed = (path: string, sign: number) =>
    `arrayMap(x -> (toInt8(${sign}), x.1, x.2, x.3, x.4), ${pathPositionsArray(path, `arrayFilter(x -> length(${path}) > 0, [(toUInt8(${paths}), toUInt8(0), toString(w_skey), '')])`)})`;
  // Each visitor's nodes and edges once per side; a visit's count of paths keyed by the visit.
  const positions =
    `SELECT DISTINCT w_vkey, x.1 AS sg, x.2 AS kind, x.3 AS step, x.4 AS src, x.5 AS tgt FROM (${pathsOf}) ` +
    `ARRAY JOIN arrayConcat(${signed("w_cp", 1)}, ${signed("w_wp", -1)}) AS x`;
  const swap = `SELECT kind, step, if(kind = ${paths}, '', src) AS source, tgt AS target, sum(sg) AS v FROM (${positions}) GROUP BY kind, step, source, target`;
  const lA = int(localDayNumber(s.timezone, o.from));
  const rowsRead = tableRead(s, VISIT_PATHS_TABLE, [
    `tz = ${p.add(s.timezone)}`,
    `batch IN ${WINNERS}`,
    `lday >= ${lA}`,
    `lday < ${int(localDayNumber(s.timezone, o.rollupTo))}`,
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
