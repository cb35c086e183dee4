// The retention insight (DESIGN.md §4 Retention, §5 the retention answer). One scan: the SQL
// returns, per visitor and local period (day/week/month) of the grid, whether the visitor did the
// start event (inside the date range) and the return event (up to the end of the grid's last
// period); the cohorts and cells are then finished in TypeScript by retentionVisitors, the same
// pure function for the answer and for the visitors behind a cell. The same statement serves both
// dialects: only the bucket (Dialect.bucket/label) differs, and that lives in the dialect table.
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
import { bucketLabels, bucketOf, bucketsUpToNow } from "../buckets.js";
import type { CompileContext, CompiledQuery } from "../compiled.js";
import { type ResolvedRange, resolveDateRange } from "../date-range.js";
import { DIALECTS, type SqlDialect } from "../dialects.js";
import { QueryError } from "../errors.js";
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
}

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
  const sql =
    `SELECT visitor_id AS visitor, ${d.label(plan.unit, k)} AS bucket, ${d.countIf(isStart)} AS starts, ` +
    `${d.countIf(isReturn)} AS returns FROM ${tableRead(s, "events", where)} GROUP BY visitor_id, ${k} ` +
    d.limit(int(RETENTION_ROW_CAP), 0);
  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}), dialect, plan };
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

/** The answer: each cohort's size and its cells for the periods that have begun. */
export function shapeRetention(plan: RetentionPlan, visitors: Map<string, VisitorPeriods>): RetentionAnswer {
  const cells = plan.cohorts.map(() => new Array<number>(plan.periods + 1).fill(0));
  for (const v of visitors.values()) {
    for (const c of memberships(plan, v)) {
      const row = cells[c] as number[];
      for (let n = 0; n <= plan.periods; n++) if (counts(plan, v, c, n)) row[n] = (row[n] ?? 0) + 1;
    }
  }
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
