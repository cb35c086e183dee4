// The retention insight (DESIGN.md §4 Retention, §5 the retention answer). Two statements over the
// same per-visitor marks (per visitor and local period (day/week/month) of the grid, whether the
// visitor did the start event (inside the date range) and the return event (up to the end of the
// grid's last period)):
// - the answer's: the engine counts each cohort's size and cells (cohort x period) and sends those
//   few rows; sending the marks themselves to be counted here cost 21 s at 10M events;
// - a cell's visitors (actors): the marks, finished in TypeScript by the pure functions below
//   (visitorPeriods, retentionCellVisitors), which state the rules the counting statement follows.
// Both dialects print the same statements: only the bucket and its ordinal (Dialect) and the
// list functions (RETENTION_FNS) differ. On DuckDB a first-time grid
// whose start and return are one unfiltered event reads each visitor's days (visitor_activity,
// activity-rollup.ts) instead: retentionFromActivity.
//
// Rules pinned (tests say which): first_time = the period of the visitor's first start event in
// the range; recurring = every period with a start event; n0 = the cohort's size; cell N ("on") =
// members with a return event in cohort + N; "on or after" = a return in any of cohort + N ..
// cohort + periods; periods that have not begun are left out and the one holding now is marked.
import {
  insightDateRange,
  parseFilters,
  RETENTION_LIMITS,
  type RetentionActorSelector,
  type RetentionAnswer,
  type RetentionCohort,
  type RetentionPeriodUnit,
  type RetentionSpec,
} from "@lookout/schema";
import { activityRollupTo, dayNumberBucket, daysWithin, VISITOR_ACTIVITY_TABLE } from "../activity-rollup.js";
import { bucketLabels, bucketOf, bucketsUpToNow } from "../buckets.js";
import type { CompileContext, CompiledQuery } from "../compiled.js";
import { type ResolvedRange, resolveDateRange } from "../date-range.js";
import { localDayNumber } from "../day-rollup.js";
import { DIALECTS, type SqlDialect } from "../dialects.js";
import { QueryError } from "../errors.js";
import { NamedRows } from "../named.js";
import { int, Params } from "../params.js";
import { Scope } from "../parts.js";
import { tableRead } from "../relation.js";
import { addDays, addMonths, formatDay, parseDay, startOfDay } from "../tz.js";
import { eventCondition } from "./trends.js";

/** The rows the statement may return (visitor × period); past it the answer would not be exact, so it is refused. */
export const RETENTION_ROW_CAP = 5_000_000;

/** The decisions of a retention query, made without SQL (tested on their own). */
export interface RetentionPlan {
  range: ResolvedRange;
  unit: RetentionPeriodUnit;
  periods: number;
  recurring: boolean;
  cumulative: boolean;
  /** The cohorts' labels (first local day of each period the range touches, none after now). */
  cohorts: string[];
  /** Every period label of the grid: the cohorts' and `periods` more after the last one. */
  grid: string[];
  /** The label of the period holding now (cells of it are incomplete, later ones absent). */
  current: string;
  /** Start events are read in [range.from, range.to), return events in [range.from, readTo). */
  readTo: number;
}

function nextPeriod(unit: RetentionPeriodUnit, label: string, n: number): string {
  const day = parseDay(label);
  return formatDay(unit === "day" ? addDays(day, n) : unit === "week" ? addDays(day, 7 * n) : addMonths(day, n));
}

export function planRetention(spec: RetentionSpec, ctx: CompileContext): RetentionPlan {
  const range = resolveDateRange(insightDateRange(spec), ctx);
  const unit = spec.period_unit;
  const cohorts = bucketsUpToNow(bucketLabels(range, unit, ctx.timezone), unit, ctx.timezone, ctx.now);
  if (cohorts.length > RETENTION_LIMITS.maxCohorts) {
    throw new QueryError(
      "too_many_cohorts",
      `a retention grid has at most ${RETENTION_LIMITS.maxCohorts} cohorts; choose a shorter range or a longer period`,
      "period",
    );
  }
  const first = cohorts[0] ?? bucketOf(unit, ctx.timezone, ctx.now);
  const grid = Array.from({ length: cohorts.length + spec.periods }, (_, i) => nextPeriod(unit, first, i));
  const afterGrid = nextPeriod(unit, first, grid.length);
  return {
    range,
    unit,
    periods: spec.periods,
    recurring: spec.retention_type === "recurring",
    cumulative: spec.cumulative,
    cohorts,
    grid,
    current: bucketOf(unit, ctx.timezone, ctx.now),
    readTo: Math.max(range.to.getTime(), startOfDay(ctx.timezone, parseDay(afterGrid))),
  };
}

export interface CompiledRetention extends CompiledQuery {
  dialect: SqlDialect;
  plan: RetentionPlan;
  /** The per-visitor marks (rows: RetentionRow), for the visitors behind a cell. */
  actors: CompiledQuery;
}

/** A row of the answer's statement: a cohort (grid index), a period, and a count of visitors. */
export interface RetentionCountRow {
  /** 0: the cohort's size (n = 0); 1: members with a return in cohort + n ("on"), or whose latest return within the periods is in cohort + n ("on or after"). */
  kind: number | bigint;
  c: number | bigint;
  n: number | bigint;
  visitors: number | bigint;
}

/** What the counting statement says differently per dialect: its list functions. */
interface RetentionFns {
  /** The group's values of `e` where `cond` holds, as a list ([] when none). */
  listIf(e: string, cond: string): string;
  listMin(a: string): string;
  /** The list's largest element as a one-element list, or [] when it has none of at least 1. */
  maxAtLeast1(a: string): string;
  distinct(a: string): string;
  /** `r - c` for each r of `a`, kept when between 1 and `periods`. */
  periodsAfter(a: string, c: string, periods: number): string;
  /** 0 followed by the elements of `a`. */
  zeroThen(a: string): string;
  nonEmpty(a: string): string;
}

const RETENTION_FNS: Record<SqlDialect, RetentionFns> = {
  duckdb: {
    listIf: (e, c) => `coalesce(list(${e}) FILTER (WHERE ${c}), [])`,
    listMin: (a) => `list_min(${a})`,
    maxAtLeast1: (a) => `list_filter([list_max(${a})], x -> x >= 1)`,
    distinct: (a) => `list_distinct(${a})`,
    periodsAfter: (a, c, n) => `list_filter(list_transform(${a}, r -> r - ${c}), y -> y >= 1 AND y <= ${n})`,
    zeroThen: (a) => `list_concat([0], ${a})`,
    nonEmpty: (a) => `len(${a}) > 0`,
  },
  clickhouse: {
    listIf: (e, c) => `groupArrayIf(${e}, ${c})`,
    // 18.16 has no arrayMin/arrayMax; a sorted copy's first element (0 for an empty list).
    listMin: (a) => `arraySort(${a})[1]`,
    maxAtLeast1: (a) => `arrayFilter(x -> x >= 1, [arrayReverseSort(${a})[1]])`,
    distinct: (a) => `arrayDistinct(${a})`,
    periodsAfter: (a, c, n) => `arrayFilter(y -> y >= 1 AND y <= ${n}, arrayMap(r -> r - ${c}, ${a}))`,
    zeroThen: (a) => `arrayConcat([toInt64(0)], ${a})`,
    nonEmpty: (a) => `notEmpty(${a})`,
  },
};

/** A row of the retention SQL: a visitor, a period label, and whether each event happened in it. */
export interface RetentionRow {
  visitor: string;
  bucket: string;
  starts: number | bigint;
  returns: number | bigint;
}

export function compileRetention(
  spec: RetentionSpec,
  property: string,
  dialect: SqlDialect,
  ctx: CompileContext,
): CompiledRetention {
  const plan = planRetention(spec, ctx);
  const d = DIALECTS[dialect];
  const p = new Params(d);
  const { range } = plan;
  const s = new Scope(d, p, property, [{ from: range.from.getTime(), to: plan.readTo }], ctx.timezone);
  const global = parseFilters(spec.filters ?? "").map((f) => eventCondition(f, p, d));
  const matchOf = (sel: RetentionSpec["start_event"], extra: string[]) =>
    `(${[`name = ${p.add(sel.event)}`, ...extra, ...parseFilters(sel.filters ?? "").map((f) => eventCondition(f, p, d))].join(" AND ")})`;
  const isStart = matchOf(spec.start_event, [`ts < ${p.ts(range.to.getTime())}`]);
  const isReturn = matchOf(spec.return_event, []);
  const where = [`ts >= ${p.ts(range.from.getTime())}`, `ts < ${p.ts(plan.readTo)}`, ...global, `(${isStart} OR ${isReturn})`];
  const k = s.bucket(plan.unit, "ts");
  const actorsSql =
    `SELECT visitor_id AS visitor, ${d.label(plan.unit, k)} AS bucket, ${d.countIf(isStart)} AS starts, ` +
    `${d.countIf(isReturn)} AS returns FROM ${tableRead(s, "events", where)} GROUP BY visitor_id, ${k} ` +
    d.limit(int(RETENTION_ROW_CAP), 0);
  const actors = done(p, actorsSql);

  // The answer: periods numbered from the first cohort's (Dialect.ordinal), visitors by the store's key.
  const fns = RETENTION_FNS[dialect];
  const base = d.ordinal(plan.unit, s.bucket(plan.unit, p.ts(range.from.getTime())));
  const marks =
    `SELECT ${d.eventVkey} AS visitor, ${d.ordinal(plan.unit, k)} - ${base} AS i, ${d.countIf(isStart)} AS st, ${d.countIf(isReturn)} AS rt ` +
    `FROM ${tableRead(s, "events", where)} GROUP BY visitor, i`;
  const cohortCount = int(plan.cohorts.length);
  const periods = int(plan.periods);
  const rollupTo = retentionRollupTo(spec, plan, {
    rollups: d.dayRollups,
    through: ctx.dayRollupThrough,
    timezone: ctx.timezone,
  });
  if (rollupTo !== null) {
    const read = {
      s,
      p,
      event: spec.start_event.event,
      base,
      periods,
      cumulative: plan.cumulative,
      eventDay: s.bucket("day", "ts"),
    };
    return { ...done(p, retentionFromActivity(read, plan, rollupTo, ctx.timezone)), dialect, plan, actors };
  }
  // One pass over the marks: per visitor, the periods with a start in the grid (cs) and those with
  // a return (rs); then per cohort of theirs a row for its size (n = 0) and one per cell they are
  // in. ClickHouse 18.16 has no named subqueries, so the cohorts joined to the returns read the
  // marks three times (the bench's grid at 1M events 747 -> 315 ms in one pass); DuckDB, which names
  // them once, pays about 13% for the lists (10M from events 1.39-1.48 -> 1.56-1.65 s): one
  // statement for both kept over a second one for DuckDB.
  const perVisitor =
    `SELECT visitor, ${fns.listIf("i", `st > 0 AND i >= 0 AND i < ${cohortCount}`)} AS cs, ${fns.listIf("i", "rt > 0")} AS rs ` +
    `FROM (${marks}) AS mk GROUP BY visitor`;
  // A visitor's cohorts: the first start's period, or every start's when recurring.
  const cohort = plan.recurring ? d.unnest(fns.distinct("cs")) : fns.listMin("cs");
  const cohorts = `SELECT visitor, ${cohort} AS c, rs FROM (${perVisitor}) AS pv WHERE ${fns.nonEmpty("cs")}`;
  // "on" counts a member in each period with a return; "on or after" in its latest one only,
  // summed from the top by shapeRetentionCounts.
  const after = fns.periodsAfter("rs", "c", periods);
  const cells = plan.cumulative ? fns.maxAtLeast1(after) : fns.distinct(after);
  const points = `SELECT c, ${d.unnest(fns.zeroThen(cells))} AS x FROM (${cohorts}) AS co`;
  const sql =
    `SELECT CASE WHEN x = 0 THEN 0 ELSE 1 END AS kind, c, x AS n, count() AS visitors FROM (${points}) AS pt GROUP BY c, x ` +
    d.limit(int(RETENTION_CELL_CAP), 0);
  return { ...done(p, sql), dialect, plan, actors };
}

/**
 * Where visitor_activity (activity-rollup.ts) answers a retention grid up to (epoch ms, a local
 * midnight; the rest from events), or null when it does not: the store keeps none, the start and
 * return events differ or carry filters, the cohorts are recurring, or the range does not start
 * at a local midnight. One visitor's days then give both their cohort (the first) and their
 * returns, so no visitor's cohort has to be joined to their returns.
 */
export function retentionRollupTo(
  spec: Pick<RetentionSpec, "filters" | "start_event" | "return_event" | "retention_type">,
  plan: Pick<RetentionPlan, "range" | "readTo">,
  o: { rollups: boolean; through: number | undefined; timezone: string },
): number | null {
  const plain =
    spec.retention_type === "first_time" &&
    spec.start_event.event === spec.return_event.event &&
    [spec.filters, spec.start_event.filters, spec.return_event.filters].every((f) => parseFilters(f ?? "").length === 0);
  return activityRollupTo(
    { from: plan.range.from.getTime(), to: plan.readTo },
    { rollups: o.rollups, filtered: !plain, through: o.through, timezone: o.timezone },
  );
}

/**
 * The counting statement from each visitor's days (DuckDB): their days of the grid from
 * visitor_activity before `rollupTo` and from events after it; the cohort is the period of the
 * first of them (when it is before the range's end), a return every later period within
 * `periods`, each visitor counted once per cell.
 */
function retentionFromActivity(
  o: { s: Scope; p: Params; event: string; base: string; periods: number; cumulative: boolean; eventDay: string },
  plan: RetentionPlan,
  rollupTo: number,
  timezone: string,
): string {
  const { s, p } = o;
  const d = DIALECTS.duckdb;
  const day = (ms: number) => localDayNumber(timezone, ms);
  const [dA, dT, dEnd] = [day(plan.range.from.getTime()), day(rollupTo), day(plan.range.to.getTime())];
  const mine = tableRead(s, VISITOR_ACTIVITY_TABLE, [`tz = ${p.add(timezone)}`, `name = ${p.add(o.event)}`]);
  let days = `SELECT vkey, ${daysWithin(dA, dT)} AS d FROM ${mine}`;
  if (rollupTo < plan.readTo) {
    const later = tableRead(s, "events", [`ts >= ${p.ts(rollupTo)}`, `ts < ${p.ts(plan.readTo)}`, `name = ${p.add(o.event)}`]);
    days =
      "SELECT coalesce(r.vkey, t.vkey) AS vkey, list_concat(coalesce(r.d, []), coalesce(t.d, [])) AS d " +
      `FROM (${days}) AS r FULL OUTER JOIN (SELECT vkey, list_sort(list(DISTINCT ${o.eventDay})) AS d FROM ${later} GROUP BY vkey) AS t ON r.vkey = t.vkey`;
  }
  const period = (x: string) => `${dayNumberBucket(plan.unit, x)} - ${o.base}`;
  // Days ascend (the later ones after the rollups' come after theirs): the first is the cohort's.
  const members = `SELECT vkey, ${period("d[1]")} AS c, d FROM (${days}) AS vd WHERE len(d) > 0 AND d[1] < ${dEnd}`;
  const named = new NamedRows("duckdb");
  const m = named.define("members", members);
  const returns = `SELECT vkey, c, ${period("x")} - c AS n FROM (SELECT vkey, c, unnest(d) AS x FROM ${m} AS mr WHERE len(d) > 1) AS ux`;
  const kept = `SELECT vkey, c, n FROM (${returns}) AS rn WHERE n >= 1 AND n <= ${int(o.periods)}`;
  // A visitor with several days in one period is one return there; "on or after" counts each
  // member once, in the period of their latest return (summed from the top when shaped).
  const cells = o.cumulative
    ? `SELECT 1 AS kind, c, mx AS n, count() AS visitors FROM (SELECT vkey, c, max(n) AS mx FROM (${kept}) AS k1 GROUP BY vkey, c) AS lr GROUP BY c, mx`
    : `SELECT 1 AS kind, c, n, ${d.uniq("vkey")} AS visitors FROM (${kept}) AS k2 GROUP BY c, n`;
  return named.statement(
    `SELECT kind, c, n, visitors FROM (SELECT 0 AS kind, c, 0 AS n, count() AS visitors FROM ${m} AS co GROUP BY c UNION ALL ${cells}) AS t ${d.limit(int(RETENTION_CELL_CAP), 0)}`,
  );
}

function done(p: Params, sql: string): CompiledQuery {
  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}) };
}

/** The answer's statement's rows at most: a size and every cell of each cohort. */
const RETENTION_CELL_CAP = 10_000;

/** The answer from the counting statement's rows. */
export function shapeRetentionCounts(plan: RetentionPlan, rows: readonly RetentionCountRow[]): RetentionAnswer {
  const cells = plan.cohorts.map(() => new Array<number>(plan.periods + 1).fill(0));
  for (const r of rows) {
    const row = cells[Number(r.c)];
    const n = Number(r.n);
    if (row === undefined || n < 0 || n > plan.periods) continue;
    row[n] = (row[n] ?? 0) + Number(r.visitors);
  }
  if (plan.cumulative) {
    for (const row of cells) for (let n = plan.periods - 1; n >= 1; n--) row[n] = (row[n] ?? 0) + (row[n + 1] ?? 0);
  }
  return retentionAnswer(plan, cells);
}

/** Per visitor: the grid indexes of the periods with a start event and with a return event. */
export interface VisitorPeriods {
  starts: Set<number>;
  returns: Set<number>;
}

/** Groups the rows by visitor; rows of periods outside the grid are dropped. */
export function visitorPeriods(plan: RetentionPlan, rows: readonly RetentionRow[]): Map<string, VisitorPeriods> {
  if (rows.length >= RETENTION_ROW_CAP) {
    throw new QueryError("too_many_rows", "too many visitors for one retention grid; choose a shorter range", "period");
  }
  const index = new Map(plan.grid.map((label, i) => [label, i]));
  const out = new Map<string, VisitorPeriods>();
  for (const r of rows) {
    const i = index.get(r.bucket);
    if (i === undefined) continue;
    let v = out.get(r.visitor);
    if (!v) {
      v = { starts: new Set(), returns: new Set() };
      out.set(r.visitor, v);
    }
    if (Number(r.starts) > 0 && i < plan.cohorts.length) v.starts.add(i);
    if (Number(r.returns) > 0) v.returns.add(i);
  }
  return out;
}

/** The cohorts (grid indexes) a visitor belongs to: the first start's, or every start's when recurring. */
function memberships(plan: RetentionPlan, v: VisitorPeriods): number[] {
  if (v.starts.size === 0) return [];
  const all = [...v.starts].sort((a, b) => a - b);
  return plan.recurring ? all : all.slice(0, 1);
}

/** Whether a member of cohort c counts in period n (n = 0: always). */
function counts(plan: RetentionPlan, v: VisitorPeriods, c: number, n: number): boolean {
  if (n === 0) return true;
  if (!plan.cumulative) return v.returns.has(c + n);
  for (let m = n; m <= plan.periods; m++) if (v.returns.has(c + m)) return true;
  return false;
}

/** Each cohort's size and cells from the per-visitor periods (the rules the counting statement follows; tests pin them here). */
export function retentionCells(plan: RetentionPlan, visitors: Map<string, VisitorPeriods>): number[][] {
  const cells = plan.cohorts.map(() => new Array<number>(plan.periods + 1).fill(0));
  for (const v of visitors.values()) {
    for (const c of memberships(plan, v)) {
      const row = cells[c] as number[];
      for (let n = 0; n <= plan.periods; n++) if (counts(plan, v, c, n)) row[n] = (row[n] ?? 0) + 1;
    }
  }
  return cells;
}

/** The answer: each cohort's size and its cells for the periods that have begun. */
export function retentionAnswer(plan: RetentionPlan, cells: readonly number[][]): RetentionAnswer {
  const cohorts: RetentionCohort[] = plan.cohorts.map((date, c) => {
    const row = cells[c] as number[];
    // Grid labels sort as text; the periods shown are those that have begun.
    let shown = 0;
    while (shown <= plan.periods && (plan.grid[c + shown] ?? "") <= plan.current) shown++;
    return {
      date,
      size: row[0] ?? 0,
      values: row.slice(0, shown),
      incomplete: plan.grid[c + shown - 1] === plan.current,
    };
  });
  return { kind: "retention", period_unit: plan.unit, periods: plan.periods, results: { cohorts } };
}

/** The visitors counted in one cell, sorted by id. */
export function retentionCellVisitors(
  plan: RetentionPlan,
  visitors: Map<string, VisitorPeriods>,
  at: RetentionActorSelector,
): string[] {
  const c = plan.cohorts.indexOf(at.cohort);
  if (c < 0 || at.period > plan.periods) return [];
  const out: string[] = [];
  for (const [id, v] of visitors) {
    if (memberships(plan, v).includes(c) && counts(plan, v, c, at.period)) out.push(id);
  }
  return out.sort();
}
