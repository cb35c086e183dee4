// The paths insight (DESIGN.md §4 Paths, §5 the paths answer). Each visit's items (page paths of
// pageviews, custom-event names, or both) in the range, in time order (ties by item), make its
// path: consecutive repeats collapsed, cut at its start and/or end point to at most `steps` items;
// an edge's weight is the distinct visitors who made that transition at that step, the top 50.
// - The answer's statement does it all in the engine (array functions of both dialects,
//   PATHS_FUNCTIONS; on DuckDB over numbers of the items) and sends the top edges, the nodes they
//   may touch and the count of paths: sending every visit's items to be walked here ran past the
//   10 s limit at 10M events.
// - A node's visitors (actors) read the per-visit rows and walk them with the pure functions
//   below (visitPath, pathsActorIds), which state the definition the statement follows.
//
// A visit is the tracker's session_id; only its events inside the range count (a visit that runs
// past an end of the range is cut there, as every insight reads raw events of the range). Visits
// without the start (or end) point are dropped in SQL already (HAVING), which keeps the rows few.
import {
  type Filter,
  insightDateRange,
  PATHS_LIMITS,
  type PathItemType,
  type PathsActorSelector,
  type PathsAnswer,
  type PathsEdge,
  type PathsNode,
  type PathsSpec,
  parseFilters,
} from "@lookout/schema";
import { CH_TMS, chCollapse, chOrderedItems, pathRowsThrough } from "../clickhouse-path-days.js";
import { settledParamsOf } from "../clickhouse-visits.js";
import type { CompileContext, CompiledQuery } from "../compiled.js";
import { type ResolvedRange, resolveDateRange } from "../date-range.js";
import { DIALECTS, type Dialect, type SqlDialect } from "../dialects.js";
import { NamedRows } from "../named.js";
import { int, Params } from "../params.js";
import { Scope } from "../parts.js";
import { collapseList, PATHS_KIND } from "../paths-rollup.js";
import { tableRead } from "../relation.js";
import { NON_CUSTOM_EVENT_NAMES } from "../tables.js";
import { chTopEdges, pathDaysStatement } from "./paths-days.js";
import { pathsRollupStatement, pathsRollupTo } from "./paths-rollup.js";
import { eventCondition } from "./trends.js";

/** Visits read per answer at most; past it the answer would not be exact, so it is refused. */
export const PATHS_MAX_VISITS = 5_000_000;

/** What the paths SQL needs per dialect beyond the shared Dialect table. */
interface PathsFunctions {
  /** An event's time in epoch milliseconds (ClickHouse keeps the milliseconds apart). */
  tms: string;
  /** The items of a group in order of (time, item). */
  orderedItems(tms: string, item: string): string;
  /** The array without consecutive repeats. */
  collapse(a: string): string;
  /** The 1-based position of the first `x` in `a`, 0 when absent. */
  position(a: string, x: string): string;
  /** The `n` elements of `a` from 1-based position `from`. */
  slice(a: string, from: string, n: string): string;
  /** The array's length. */
  length(a: string): string;
  /** A FROM item of `read`'s rows with `keep` columns, each row once per 1-based position of `array`, as `k`. */
  positions(read: string, keep: readonly string[], array: string): string;
  greatest(a: string, b: string): string;
  /** Whether the answer walks numbers of the range's distinct items (p_items) instead of the items. */
  numbersItems: boolean;
  /** Up to where rows the store keeps may answer (paths-rollup.ts pathsRollupTo's `through`), and the statement that reads them. */
  rollup: {
    through(d: Dialect, ctx: CompileContext, property: string): number | undefined;
    statement: typeof pathDaysStatement;
  };
  /**
   * The answer in one pass over the paths with aggregate states (ClickHouse: onePassAnswer), or
   * null to print it from named subqueries (DuckDB names each once). 18.16 has none, so the
   * edges, the nodes, the IN list of the edges' items and the count would each walk every visit.
   */
  onePass: ((paths: string, fns: PathsFunctions) => string) | null;
}

const PATHS_FUNCTIONS: Record<SqlDialect, PathsFunctions> = {
  duckdb: {
    tms: "epoch_ms(ts)",
    // Sorting each group's (time, item) structs is 3-4x faster than an ordered aggregate, which
    // DuckDB runs as a sort per group (bench/insights.bench.ts: 240 000 visits at 1M events).
    orderedItems: (t, i) => `list_transform(list_sort(list(struct_pack(t := ${t}, i := ${i}))), x -> x.i)`,
    collapse: collapseList,
    position: (a, x) => `coalesce(list_position(${a}, ${x}), 0)`,
    slice: (a, from, n) => `list_slice(${a}, ${from}, ${from} + ${n} - 1)`,
    length: (a) => `len(${a})`,
    positions: (read, keep, a) => `(SELECT ${keep.join(", ")}, unnest(generate_series(1, len(${a}))) AS k FROM ${read})`,
    greatest: (a, b) => `greatest(${a}, ${b})`,
    numbersItems: true,
    rollup: { through: (d, ctx) => (d.dayRollups ? ctx.dayRollupThrough : undefined), statement: pathsRollupStatement },
    onePass: null,
  },
  clickhouse: {
    tms: CH_TMS,
    // arraySort orders the (time, item) tuples lexicographically; then the items alone (the one
    // text the path rows' fill and read use too: clickhouse-path-days.ts).
    orderedItems: (t, i) => chOrderedItems(t, i),
    collapse: chCollapse,
    position: (a, x) => `toInt64(indexOf(${a}, ${x}))`,
    slice: (a, from, n) => `arraySlice(${a}, ${from}, ${n})`,
    length: (a) => `toInt64(length(${a}))`,
    positions: (read, keep, a) => `(SELECT ${keep.join(", ")}, toInt64(arrayJoin(arrayEnumerate(${a}))) AS k FROM ${read})`,
    greatest: (a, b) => `greatest(${a}, ${b})`,
    // 18.16 has no window functions to number them with: it walks the items themselves.
    numbersItems: false,
    // The path rows filled at settle time (clickhouse-path-days.ts), for the days they cover.
    rollup: {
      through: (_d, ctx, property) => pathRowsThrough(ctx.settledVisits, property, ctx.timezone),
      statement: pathDaysStatement,
    },
    onePass: (paths, fns) => onePassAnswer(paths, fns),
  },
};

/** The decisions of a paths answer, apart from the SQL (tested without printing any). */
export interface PathsPlan {
  items: PathItemType;
  start: string | null;
  end: string | null;
  steps: number;
  /** The anchor points a visit must contain to be read at all. */
  required: string[];
}

export function planPaths(spec: PathsSpec): PathsPlan {
  const start = spec.start ?? null;
  const end = spec.end ?? null;
  return {
    items: spec.type,
    start,
    end,
    steps: spec.steps,
    required: [start, end].filter((x): x is string => x !== null),
  };
}

export interface CompiledPaths extends CompiledQuery {
  dialect: SqlDialect;
  range: ResolvedRange;
  plan: PathsPlan;
  /** The per-visit rows (PathsRow), for the visitors behind a node. */
  actors: CompiledQuery;
  /** The actors' row cap (a full page means the list could not be exact). */
  cap: number;
  /** Up to where the answer read the paths rollups (insights/paths-rollup.ts), null: from events alone. */
  rollupTo: number | null;
}

/** A row of the answer's statement: an edge (kind 0), a node's visitors (1, target ''), or the count of paths (2, in visitors). */
export interface PathsCountRow {
  kind: number | bigint;
  step: number | bigint;
  source: string;
  target: string;
  visitors: number | bigint;
}

/** A row of the paths SQL: one visit. */
export interface PathsRow {
  v: string | number | bigint;
  c: string;
  items: readonly string[];
}

export function compilePaths(spec: PathsSpec, property: string, dialect: SqlDialect, ctx: CompileContext): CompiledPaths {
  const d = DIALECTS[dialect];
  const fns = PATHS_FUNCTIONS[dialect];
  const p = new Params(d);
  const plan = planPaths(spec);
  const range = resolveDateRange(insightDateRange(spec), ctx);
  const s = new Scope(d, p, property, [{ from: range.from.getTime(), to: range.to.getTime() }], ctx.timezone);
  const global: Filter[] = parseFilters(spec.filters ?? "");
  const rollupTo = pathsRollupTo(spec, {
    rollups: true,
    range: { from: range.from.getTime(), to: range.to.getTime() },
    through: fns.rollup.through(d, ctx, property),
    timezone: ctx.timezone,
  });
  const pageview = "name = 'pageview'";
  const notIn = (names: readonly string[]) => `name NOT IN (${names.map((n) => `'${n}'`).join(", ")})`;
  const kept =
    plan.items === "pageview"
      ? pageview
      : plan.items === "event"
        ? notIn(NON_CUSTOM_EVENT_NAMES)
        : notIn(NON_CUSTOM_EVENT_NAMES.filter((n) => n !== "pageview"));
  const item =
    plan.items === "pageview" ? "path" : plan.items === "event" ? "name" : `CASE WHEN ${pageview} THEN path ELSE name END`;
  const where = [
    `ts >= ${p.ts(range.from.getTime())}`,
    `ts < ${p.ts(range.to.getTime())}`,
    kept,
    ...global.map((f) => eventCondition(f, p, d)),
  ];
  // e_* names: a ClickHouse alias may not reuse a column's name (dialects.ts).
  const events = `SELECT ${d.eventSkey} AS e_s, ${d.eventVkey} AS e_v, client_id AS e_c, ${fns.tms} AS e_t, ${item} AS e_i FROM ${tableRead(s, "events", where)}`;
  /** Each visit's items in order (`inner` gives e_i); `anchor` prints an anchor point as an item. */
  const visitsOf = (inner: string, anchor: (x: string) => string) => {
    const having = plan.required.map((x) => `${d.countIf(`e_i = ${anchor(x)}`)} > 0`);
    return (
      `SELECT ${d.anyValue("e_v")} AS v, ${d.anyValue("e_c")} AS c, ${fns.orderedItems("e_t", "e_i")} AS items ` +
      `FROM (${inner}) AS pv GROUP BY e_s${having.length > 0 ? ` HAVING ${having.join(" AND ")}` : ""}`
    );
  };
  const actors = done(p, `${visitsOf(events, (x) => p.add(x))} ${d.limit(int(PATHS_MAX_VISITS), 0)}`);
  if (rollupTo !== null) {
    const sql = fns.rollup.statement(s, d, p, {
      from: range.from.getTime(),
      to: range.to.getTime(),
      rollupTo,
      steps: plan.steps,
      rowCap: PATHS_ANSWER_ROWS,
      settled: ctx.settledVisits,
    });
    const compiled = done(p, sql);
    // The settled batches the bound was read with (ClickHouse), not those of when it runs.
    const bound = ctx.settledVisits
      ? { ...compiled, params: { ...compiled.params, ...settledParamsOf(sql, ctx.settledVisits) } }
      : compiled;
    return { ...bound, dialect, range, plan, actors, cap: PATHS_MAX_VISITS, rollupTo };
  }

  const named = new NamedRows(dialect);
  // What the answer walks: the items, or (DuckDB) numbers of the range's distinct items in item
  // order, so that ties break alike: lists and groups of integers instead of strings halve the
  // statement at 10M events under the 1 GB memory limit (bench/insights.bench.ts). `nameOf` names
  // an answer's column back; `blank` is the no-item of its rows that have none.
  const walk = (() => {
    if (!fns.numbersItems) {
      return { events, anchor: (x: string) => p.add(x), nameOf: (col: string) => col, blank: "''" };
    }
    const dict = named.define(
      "p_items",
      `SELECT i, CAST(row_number() OVER (ORDER BY i) AS INTEGER) AS id FROM (SELECT DISTINCT ${item} AS i FROM ${tableRead(s, "events", where)}) AS di`,
    );
    return {
      events: `SELECT e_s, e_v, e_c, e_t, di.id AS e_i FROM (${events}) AS ev JOIN ${dict} AS di ON ev.e_i = di.i`,
      // An anchor absent from the range has no number: NULL, which no item equals.
      anchor: (x: string) => `(SELECT id FROM ${dict} AS da WHERE i = ${p.add(x)})`,
      nameOf: (col: string) => `coalesce((SELECT i FROM ${dict} AS dn WHERE id = t.${col}), '') AS ${col}`,
      blank: "NULL",
    };
  })();
  const { anchor, nameOf, blank } = walk;
  const visits = visitsOf(walk.events, anchor);

  // The answer: visitPath() in SQL. fr: the start's position (1 without a start point, 0 when
  // absent); rl: the end's position counted from fr (0 when absent).
  const n = String(int(plan.steps));
  const startAt = plan.start === null ? "1" : fns.position("cl", anchor(plan.start));
  const endRel = plan.end === null ? "0" : fns.position(fns.slice("cl", "fr", `${fns.length("cl")} - fr + 1`), anchor(plan.end));
  const cut =
    plan.end === null
      ? `SELECT v, ${fns.slice("cl", "fr", n)} AS path FROM (SELECT v, cl, fr FROM (SELECT v, cl, ${startAt} AS fr FROM (SELECT v, ${fns.collapse("items")} AS cl FROM (${visits}) AS vs) AS l1) AS l2 WHERE fr > 0) AS l3`
      : // to = fr + rl - 1; with a start point the path must reach the end within `steps` items.
        `SELECT v, ${fns.slice("cl", "st", "fr + rl - st")} AS path FROM (SELECT v, cl, fr, rl, ${fns.greatest("fr", `fr + rl - ${n}`)} AS st ` +
        `FROM (SELECT v, cl, fr, ${endRel} AS rl FROM (SELECT v, cl, ${startAt} AS fr FROM (SELECT v, ${fns.collapse("items")} AS cl FROM (${visits}) AS vs) AS l1) AS l2 WHERE fr > 0) AS l3 ` +
        `WHERE rl > 0${plan.start !== null ? ` AND rl <= ${n}` : ""}) AS l4`;
  // The paths are read once, by the positions below (every path has a first position, which
  // counts it), so they are never held whole.
  const paths = `(${cut})`;
  if (fns.onePass !== null) {
    const sql = fns.onePass(`SELECT v, path, ${fns.length("path")} AS n FROM ${paths} AS pp`, fns);
    return { ...done(p, sql), dialect, range, plan, actors, cap: PATHS_MAX_VISITS, rollupTo: null };
  }
  // One row per position of a path: its item and the next (the edge from it), not the whole path
  // again per position (at 10M events the rows of every position held every path four times over).
  const steps = named.define(
    "p_steps",
    `SELECT v, k, n, path[k] AS source, path[k + 1] AS target FROM ${fns.positions(`${paths} AS pp`, ["v", "path", `${fns.length("path")} AS n`], "path")} AS ps`,
  );
  const edges = named.define(
    "p_edges",
    `SELECT k AS step, source, target, ${d.uniq("v")} AS visitors FROM ${steps} AS s1 ` +
      `WHERE k < n GROUP BY step, source, target ORDER BY visitors DESC, step, source, target ${d.limit(int(PATHS_LIMITS.maxEdges), 0)}`,
  );
  // Nodes of the items the top edges name (at any step; shapePathsCounts keeps the touched ones).
  // The edges' items from one read of them: ClickHouse 18.16 has no named subqueries, so each
  // reference computes the paths again (two IN lists made it five times in all, now four).
  const mentioned = `source IN (SELECT ${d.unnest("[source, target]")} AS item FROM ${edges} AS e1)`;
  const nodes = `SELECT ${PATHS_KIND.node} AS kind, k AS step, source, ${blank} AS target, ${d.uniq("v")} AS visitors FROM ${steps} AS s2 WHERE ${mentioned} GROUP BY step, source`;
  const sql = named.statement(
    `SELECT kind, step, ${nameOf("source")}, ${nameOf("target")}, visitors FROM (SELECT ${PATHS_KIND.edge} AS kind, step, source, target, visitors FROM ${edges} AS e0 ` +
      `UNION ALL ${nodes} UNION ALL SELECT ${PATHS_KIND.paths} AS kind, 0 AS step, ${blank} AS source, ${blank} AS target, count() AS visitors FROM ${steps} AS p0 WHERE k = 1) AS t ` +
      d.limit(int(PATHS_ANSWER_ROWS), 0),
  );
  return { ...done(p, sql), dialect, range, plan, actors, cap: PATHS_MAX_VISITS, rollupTo: null };
}

/**
 * The answer's rows in one pass over the paths (ClickHouse; `paths` gives v, path, n): per step,
 * item and next item (none after the last), the visitors' state and the count of paths; per node
 * its visitors merged from them and its outgoing edges; then in one row every edge and node as
 * arrays, of which the top edges (ordered as the other dialect's ORDER BY), the nodes of the
 * items they name and the count of paths are spread back into rows (ARRAY JOIN).
 */
function onePassAnswer(paths: string, fns: PathsFunctions): string {
  const { edge, node, paths: count } = PATHS_KIND;
  const positions = fns.positions(`(${paths})`, ["v", "path", "n"], "path");
  const perEdge =
    `SELECT k, source, target, last, uniqExactState(v) AS st, count() AS c FROM (SELECT v, k, path[k] AS source, ` +
    `if(k < n, path[k + 1], '') AS target, k = n AS last FROM ${positions} AS ps) AS s1 GROUP BY k, source, target, last`;
  const perNode =
    "SELECT k, source, uniqExactMerge(st) AS nv, arrayMap(o -> (o.1, finalizeAggregation(o.3)), " +
    `arrayFilter(o -> NOT o.2, groupArray((target, last, st)))) AS outs, sumIf(c, k = 1) AS pc FROM (${perEdge}) AS g1 GROUP BY k, source`;
  const all = `SELECT groupArrayArray(arrayMap(o -> (k, source, o.1, o.2), outs)) AS edges, groupArray((k, source, nv)) AS nodes, sum(pc) AS paths FROM (${perNode}) AS g2`;
  const { threshold, top } = chTopEdges("edges");
  const rows =
    `arrayConcat(arrayMap(e -> (${edge}, e.1, e.2, e.3, e.4), top), ` +
    `arrayMap(x -> (${node}, x.1, x.2, '', x.3), arrayFilter(x -> has(items, x.2), nodes)), [(${count}, toInt64(0), '', '', paths)])`;
  return (
    "SELECT r.1 AS kind, r.2 AS step, r.3 AS source, r.4 AS target, r.5 AS visitors FROM (" +
    `SELECT ${threshold} AS th, ${top} AS top, arrayConcat(arrayMap(e -> e.2, top), arrayMap(e -> e.3, top)) AS items, ${rows} AS rs FROM (${all}) AS g3` +
    `) AS g4 ARRAY JOIN rs AS r LIMIT 0, ${int(PATHS_ANSWER_ROWS)}`
  );
}

/** The answer's rows at most: the top edges, the nodes of their items at every step, the count. */
const PATHS_ANSWER_ROWS = 2 * PATHS_LIMITS.maxEdges * 10 + PATHS_LIMITS.maxEdges + 1;

function done(p: Params, sql: string): CompiledQuery {
  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}) };
}

/** The answer from the statement's rows: the top edges in their order, the nodes they touch, the count of paths. */
export function shapePathsCounts(rows: readonly PathsCountRow[]): PathsAnswer {
  const edges: PathsEdge[] = rows
    .filter((r) => Number(r.kind) === PATHS_KIND.edge)
    .map((r) => ({ step: Number(r.step), source: String(r.source), target: String(r.target), visitors: Number(r.visitors) }))
    .sort((a, b) => b.visitors - a.visitors || a.step - b.step || cmp(a.source, b.source) || cmp(a.target, b.target));
  const nodeVisitors = new Map(
    rows
      .filter((r) => Number(r.kind) === PATHS_KIND.node)
      .map((r) => [key(Number(r.step), String(r.source)), Number(r.visitors)]),
  );
  const paths = Number(rows.find((r) => Number(r.kind) === PATHS_KIND.paths)?.visitors ?? 0);
  return { kind: "paths", results: { edges, nodes: touchedNodes(edges, (nk) => nodeVisitors.get(nk) ?? 0), paths } };
}

// --- the definition, finished in TypeScript ---------------------------------------------------------

/**
 * A visit's items (in time order) -> its path: consecutive repeats collapsed; with a start point,
 * from its first occurrence on, at most `steps` items; with an end point, up to its first
 * occurrence (after the start, when there is one), the last `steps` items; with both, the visit
 * counts only when it reaches the end within `steps` items of the start. Null when the visit has
 * no path (no items, or an anchor missing).
 */
export function visitPath(items: readonly string[], plan: PathsPlan): string[] | null {
  const collapsed: string[] = [];
  for (const x of items) if (collapsed[collapsed.length - 1] !== x) collapsed.push(x);
  const n = plan.steps;
  let from = 0;
  if (plan.start !== null) {
    from = collapsed.indexOf(plan.start);
    if (from < 0) return null;
  }
  let path: string[];
  if (plan.end !== null) {
    const to = collapsed.indexOf(plan.end, from);
    if (to < 0) return null;
    if (plan.start !== null && to - from + 1 > n) return null;
    path = collapsed.slice(Math.max(from, to + 1 - n), to + 1);
  } else {
    path = collapsed.slice(from, from + n);
  }
  return path.length > 0 ? path : null;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const key = (...parts: (string | number)[]) => parts.join("\u0000");

/**
 * The rows -> the answer: per (step, source, target) the distinct visitors; the top 50 by visitors
 * (ties: earlier step, then source, then target, by code unit); the nodes those edges touch with
 * their own distinct visitors.
 */
export function shapePaths(c: Pick<CompiledPaths, "plan">, rows: readonly PathsRow[]): PathsAnswer {
  const edges = new Map<string, { step: number; source: string; target: string; visitors: Set<string> }>();
  const nodes = new Map<string, Set<string>>();
  let paths = 0;
  for (const r of rows) {
    const path = visitPath(r.items, c.plan);
    if (path === null) continue;
    paths++;
    const v = String(r.v);
    for (const [i, item] of path.entries()) {
      const nk = key(i + 1, item);
      let ns = nodes.get(nk);
      if (!ns) nodes.set(nk, (ns = new Set()));
      ns.add(v);
      const next = path[i + 1];
      if (next === undefined) continue;
      const ek = key(i + 1, item, next);
      let e = edges.get(ek);
      if (!e) edges.set(ek, (e = { step: i + 1, source: item, target: next, visitors: new Set() }));
      e.visitors.add(v);
    }
  }
  const top: PathsEdge[] = [...edges.values()]
    .map((e) => ({ step: e.step, source: e.source, target: e.target, visitors: e.visitors.size }))
    .sort((a, b) => b.visitors - a.visitors || a.step - b.step || cmp(a.source, b.source) || cmp(a.target, b.target))
    .slice(0, PATHS_LIMITS.maxEdges);
  return { kind: "paths", results: { edges: top, nodes: touchedNodes(top, (nk) => nodes.get(nk)?.size ?? 0), paths } };
}

/** The nodes the edges touch (each edge's source at its step, target at the next), with their visitors. */
function touchedNodes(top: readonly PathsEdge[], visitorsOf: (nodeKey: string) => number): PathsNode[] {
  const touched = new Map<string, PathsNode>();
  for (const e of top) {
    for (const [step, node] of [
      [e.step, e.source],
      [e.step + 1, e.target],
    ] as const) {
      const nk = key(step, node);
      if (!touched.has(nk)) touched.set(nk, { step, node, visitors: visitorsOf(nk) });
    }
  }
  return [...touched.values()].sort((a, b) => a.step - b.step || b.visitors - a.visitors || cmp(a.node, b.node));
}

/** The client ids (sorted, distinct) of the visits whose path has `at.node` at step `at.step`. */
export function pathsActorIds(c: Pick<CompiledPaths, "plan">, rows: readonly PathsRow[], at: PathsActorSelector): string[] {
  const ids = new Set<string>();
  for (const r of rows) {
    const path = visitPath(r.items, c.plan);
    if (path !== null && path[at.step - 1] === at.node) ids.add(r.c);
  }
  return [...ids].sort(cmp);
}
