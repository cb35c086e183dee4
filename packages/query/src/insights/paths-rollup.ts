// Page paths from the paths rollups (DuckDB, paths-rollup.ts): which specs they answer (pages,
// no start or end point, no filter, a range starting at a local midnight before the mark) and the
// statement that answers one.
//
// Each edge's and node's count is a sum over visitors: 1 when some visit of theirs in the range
// has it. The rows give that sum for the visits starting in whole days [A, R) (R: the mark, or the
// range's last midnight), over each visit's whole path. A visitor's share is different only when
// one of their visits is cut by the range (started before A, or still going at R) or starts after
// R: the set S of the visitors with a pageview from R to the range's end or a visit over A or R.
// So the statement takes the rows' sums and, for S alone, swaps what the rows counted (the nodes
// and edges of their whole visits starting in [A, R), from their events) for what they add to the
// answer (those of their cut visits in the range), as the breakdown rollups' read does. The count
// of paths is swapped the same way, as a count of visits. S is the day's visitors at most for a
// range that ends today, and the visits over A or R otherwise.
import { PATHS_LIMITS, type PathsSpec, parseFilters } from "@lookout/schema";
import { activityRollupTo } from "../activity-rollup.js";
import { localDayNumber } from "../day-rollup.js";
import type { Dialect } from "../dialects.js";
import { NamedRows } from "../named.js";
import { int, type Params } from "../params.js";
import type { Scope } from "../parts.js";
import { PATHS_KIND, PATHS_PAGES_TABLE, PATHS_ROLLUP_TABLE, pathPositionsSql, visitPathsSql } from "../paths-rollup.js";
import { tableRead } from "../relation.js";

/**
 * Up to where (epoch ms, a local midnight) the paths rollups answer a spec over `range`, or null
 * when they do not: the store keeps none, the spec walks events or has a start, an end or a
 * filter, the range does not start at a local midnight, or no whole day of it is before the mark
 * (the activity rollups' rule: activityRollupTo).
 */
export function pathsRollupTo(
  spec: Pick<PathsSpec, "type" | "start" | "end" | "filters">,
  o: { rollups: boolean; range: { from: number; to: number }; through: number | undefined; timezone: string },
): number | null {
  if (!pathsRollupSpec(spec)) return null;
  return activityRollupTo(o.range, { ...o, filtered: false });
}

/** Whether rows of paths (the rollups, ClickHouse's path rows) can answer the spec at all: pages, no start, end or filter. */
export function pathsRollupSpec(spec: Pick<PathsSpec, "type" | "start" | "end" | "filters">): boolean {
  return (
    spec.type === "pageview" &&
    spec.start === undefined &&
    spec.end === undefined &&
    parseFilters(spec.filters ?? "").length === 0
  );
}

/**
 * The answer's statement (PathsCountRow, as compilePaths's) for `steps` steps over [from, to),
 * the rows read for the local days [from, rollupTo).
 */
export function pathsRollupStatement(
  s: Scope,
  d: Dialect,
  p: Params,
  o: { from: number; to: number; rollupTo: number; steps: number; rowCap: number },
): string {
  const n = int(o.steps);
  const A = p.ts(o.from);
  const R = p.ts(o.rollupTo);
  const named = new NamedRows("duckdb");
  const pageviews = (where: string[]) => tableRead(s, "events", ["name = 'pageview'", ...where]);
  // The visits over A or R (whether they started before A), from the visit rollups.
  const over = named.define(
    "p_over",
    `SELECT skey, vkey, start_ts < ${A} AS before FROM ${tableRead(s, "sessions", [
      `((start_ts < ${A} AND end_ts >= ${A}) OR (start_ts < ${R} AND end_ts >= ${R}))`,
    ])}`,
  );
  // S: the visitors whose share the rows do not give.
  const S = named.define(
    "p_s",
    `SELECT vkey FROM ${pageviews([`ts >= ${R}`, `ts < ${p.ts(o.to)}`])} UNION SELECT vkey FROM ${over} AS o0`,
  );
  // Their events from A on, read once: those after the range too, for their visits' whole paths.
  // Every event, its path kept for pageviews: a name test that the row sets' readers shared would
  // be pushed into the scan of every event, where it costs more than the semi-join.
  const ev = named.define(
    "p_ev",
    `SELECT skey, vkey, ts, CASE WHEN name = 'pageview' THEN path END AS path FROM ${tableRead(s, "events", [
      `ts >= ${A}`,
      `vkey IN (SELECT vkey FROM ${S} AS s0)`,
    ])}`,
  );
  // The pages' numbers: the rows', and below 0 those of their pages the rows have none for.
  const numbered = tableRead(s, PATHS_PAGES_TABLE, []);
  const ids = named.define(
    "p_ids",
    `SELECT page, id FROM ${numbered} UNION ALL SELECT page, -CAST(row_number() OVER (ORDER BY page) AS INTEGER) FROM ` +
      `(SELECT DISTINCT path AS page FROM ${ev} AS n0 WHERE path IS NOT NULL AND path NOT IN (SELECT page FROM ${numbered})) AS np`,
  );
  const evn = named.define(
    "p_evn",
    `SELECT e.skey, e.vkey, e.ts, e.path, i.id AS pid FROM ${ev} AS e LEFT JOIN ${ids} AS i ON i.page = e.path`,
  );
  // What they add: their visits' paths in the range.
  const cut = named.define("p_cut", visitPathsSql(`${evn} AS c0 WHERE ts < ${p.ts(o.to)}`, null, [], o.steps));
  // What the rows counted for them: the whole paths of their visits starting in [A, R). A visit
  // over neither lies on one side of R, so its first event says which; one over R started before
  // it, one over A is left out.
  const whole = named.define(
    "p_whole",
    visitPathsSql(
      `${evn} AS w0`,
      null,
      [],
      o.steps,
      `skey NOT IN (SELECT skey FROM ${over} AS o1 WHERE before) AND (skey IN (SELECT skey FROM ${over} AS o2) OR min(ts) < ${R})`,
    ),
  );
  // S's swap per node, edge and the count: what they add less what the rows counted for them.
  const positions = (paths: string) => `SELECT DISTINCT * FROM (${pathPositionsSql(`SELECT * FROM ${paths}`, [])}) AS u`;
  const swap = named.define(
    "p_swap",
    `SELECT kind, step, source, target, sum(sign) AS visitors FROM (` +
      `SELECT kind, step, source, target, 1 AS sign FROM (${positions(cut)}) AS c1 ` +
      `UNION ALL SELECT kind, step, source, target, -1 AS sign FROM (${positions(whole)}) AS w1 ` +
      `UNION ALL SELECT ${PATHS_KIND.paths}, 0, 0, 0, 1 FROM ${cut} AS c2 ` +
      `UNION ALL SELECT ${PATHS_KIND.paths}, 0, 0, 0, -1 FROM ${whole} AS w2) AS sw GROUP BY ALL`,
  );
  const lA = int(localDayNumber(s.timezone, o.from));
  const days = [`tz = ${p.add(s.timezone)}`, `lday >= ${lA}`, `lday < ${int(localDayNumber(s.timezone, o.rollupTo))}`];
  // Each kind apart: the top edges group the edge rows alone, the nodes only those of the pages
  // those edges name.
  const summed = (kind: number, where: string[], swapWhere: string) =>
    `SELECT step, source, target, sum(visitors) AS visitors FROM (` +
    `SELECT step, source, target, visitors FROM ${tableRead(s, PATHS_ROLLUP_TABLE, [...days, `kind = ${kind}`, ...where])} ` +
    `UNION ALL SELECT step, source, target, visitors FROM ${swap} AS sw0 WHERE kind = ${kind}${swapWhere}) AS t0 GROUP BY ALL HAVING sum(visitors) > 0`;
  const edges = named.define(
    "p_edges",
    `SELECT g.step, a.page AS source, b.page AS target, g.visitors, g.source AS sid, g.target AS tid ` +
      `FROM (${summed(PATHS_KIND.edge, [`prev_lday < ${lA}`, `step < ${n}`], "")}) AS g JOIN ${ids} AS a ON a.id = g.source JOIN ${ids} AS b ON b.id = g.target ` +
      `ORDER BY g.visitors DESC, g.step, a.page, b.page ${d.limit(int(PATHS_LIMITS.maxEdges), 0)}`,
  );
  const mentioned = (alias: string) =>
    `(source IN (SELECT sid FROM ${edges} AS ${alias}1) OR source IN (SELECT tid FROM ${edges} AS ${alias}2))`;
  const nodes =
    `SELECT g.step, a.page AS source, g.visitors FROM (${summed(PATHS_KIND.node, [`prev_lday < ${lA}`, `step <= ${n}`, mentioned("m")], ` AND ${mentioned("k")}`)}) AS g ` +
    `JOIN ${ids} AS a ON a.id = g.source`;
  const count = summed(PATHS_KIND.paths, [], "");
  return named.statement(
    `SELECT ${PATHS_KIND.edge} AS kind, step, source, target, visitors FROM ${edges} AS e0 ` +
      `UNION ALL SELECT ${PATHS_KIND.node}, step, source, '', visitors FROM (${nodes}) AS n0 ` +
      `UNION ALL SELECT ${PATHS_KIND.paths}, 0, '', '', coalesce(sum(visitors), 0) FROM (${count}) AS c0 ` +
      d.limit(int(o.rowCap), 0),
  );
}
