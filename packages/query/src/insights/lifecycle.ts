// The lifecycle insight (DESIGN.md §4 Lifecycle, peers.md §1.5). One statement answers each
// interval's four counts: per visitor and local interval of the range (plus one interval before
// it, the lookback) whether the visitor did the event, whether they did it the interval before,
// and whether their first-ever event (any event, all history up to the range's end: DESIGN.md's
// stand-in for a creation date) falls in it; then per interval, how many visitors are in each
// status. Intervals are numbered (Dialect.ordinal) so that "the interval before" is one less,
// which needs neither window functions nor a join (ClickHouse 18.16 has the first in no form and
// the second by USING only). The engine sends one row per interval: sending the (visitor,
// interval) rows themselves to be counted here cost 39 s at 10M events.
//
// Rules pinned (tests say which): new = active in an interval holding the visitor's first-ever
// event; returning = active this interval and the previous one; resurrecting = active, not the
// previous interval, first-ever event earlier (so a visitor created before their first chosen event
// is resurrecting, peers.md §1.5); dormant = active the previous interval, not this one (negative).
import { insightDateRange, type LifecycleAnswer, type LifecyclePoint, type LifecycleSpec, parseFilters } from "@lookout/schema";
import { ACTIVITY_ROLLUP_TABLE } from "../activity-rollup.js";
import { bucketLabels, bucketsUpToNow } from "../buckets.js";
import type { CompileContext, CompiledQuery } from "../compiled.js";
import { defaultInterval, type ResolvedRange, resolveDateRange } from "../date-range.js";
import { localDayNumber } from "../day-rollup.js";
import { DIALECTS, type SqlDialect } from "../dialects.js";
import { QueryError } from "../errors.js";
import { NamedRows } from "../named.js";
import { int, Params } from "../params.js";
import { Scope } from "../parts.js";
import { tableRead } from "../relation.js";
import { addDays, addMonths, formatDay, parseDay, startOfDay } from "../tz.js";
import { eventCondition } from "./trends.js";

/** The most rows the statement answers: one per interval of the grid and the one after it. */
export const LIFECYCLE_ROW_CAP = 2000;
type Unit = "day" | "week" | "month";

export interface LifecyclePlan {
  range: ResolvedRange;
  unit: Unit;
  /** The lookback interval, then every interval of the range (labels). */
  grid: string[];
  /** Where each grid interval starts, and (last) where the one after the grid starts: epoch ms. */
  starts: number[];
  /** How many grid intervals are answered (from index 1; none after the one holding now). */
  shown: number;
}

function step(unit: Unit, label: string, n: number): string {
  const d = parseDay(label);
  return formatDay(unit === "day" ? addDays(d, n) : unit === "week" ? addDays(d, 7 * n) : addMonths(d, n));
}

export function planLifecycle(spec: LifecycleSpec, ctx: CompileContext): LifecyclePlan {
  const dateRange = insightDateRange(spec);
  const range = resolveDateRange(dateRange, ctx);
  const asked = spec.interval ?? defaultInterval(dateRange, range);
  const unit: Unit = asked === "week" || asked === "month" ? asked : "day";
  const labels = bucketLabels(range, unit, ctx.timezone);
  const first = labels[0];
  if (first === undefined) throw new QueryError("empty_range", "the range has no interval", "period");
  const grid = [step(unit, first, -1), ...labels];
  const starts = [...grid, step(unit, first, labels.length)].map((l) => startOfDay(ctx.timezone, parseDay(l)));
  return { range, unit, grid, starts, shown: bucketsUpToNow(labels, unit, ctx.timezone, ctx.now).length };
}

/**
 * Which grid intervals the activity rollups answer (activity-rollup.ts): [1, upTo), every one of
 * them and the lookback before them lying wholly before both the rollups' mark and the range's
 * end. None (upTo 1) when the store keeps none, a filter asks for more than an event name, or
 * the mark is not past the lookback.
 */
export function lifecycleRollupUpTo(
  plan: LifecyclePlan,
  o: { rollups: boolean; filtered: boolean; through: number | undefined },
): number {
  if (!o.rollups || o.filtered || o.through === undefined) return 1;
  const limit = Math.min(o.through, plan.range.to.getTime());
  let upTo = 1;
  for (let j = 2; j < plan.starts.length && j <= 1 + plan.shown; j++) if ((plan.starts[j] as number) <= limit) upTo = j;
  return (plan.starts[1] as number) <= limit ? upTo : 1;
}

export interface CompiledLifecycle extends CompiledQuery {
  dialect: SqlDialect;
  plan: LifecyclePlan;
  /** Grid intervals [1, rollupUpTo) are answered by `rollup`; the statement (`sql`) answers those from rollupUpTo on. */
  rollupUpTo: number;
  rollup: CompiledQuery | null;
  /** False when `rollup` answers every shown interval: the statement need not run. */
  rawNeeded: boolean;
}

/** A row of the rollup statement: a grid interval's active visitors, and how many of them were returning or new. */
export interface LifecycleRollupRow {
  idx: number | bigint;
  active: number | bigint | null;
  returning: number | bigint | null;
  new: number | bigint | null;
}

/** The grid interval (index) of a local day number column; -1 before the grid. */
function intervalOfDay(plan: LifecyclePlan, days: number[], column: string): string {
  const d0 = days[0] as number;
  const inGrid =
    plan.unit === "day"
      ? `${column} - ${d0}`
      : plan.unit === "week"
        ? `(${column} - ${d0}) // 7`
        : `CASE ${days
            .slice(1, -1)
            .map((d, j) => `WHEN ${column} < ${d} THEN ${j}`)
            .join(" ")} ELSE ${days.length - 2} END`;
  return `CASE WHEN ${column} < ${d0} THEN -1 ELSE ${inGrid} END`;
}

/** The rollup statement: per grid interval [0, upTo), its active visitors, returning and new (activity-rollup.ts says why it is exact). */
function lifecycleRollupSql(spec: LifecycleSpec, property: string, plan: LifecyclePlan, upTo: number, tz: string): CompiledQuery {
  const d = DIALECTS.duckdb;
  const p = new Params(d);
  const s = new Scope(d, p, property, [{ from: plan.starts[0] as number, to: plan.starts[upTo] as number }], tz);
  const days = plan.starts.slice(0, upTo + 1).map((ms) => localDayNumber(tz, ms));
  const where = [`tz = ${p.add(tz)}`, `name = ${p.add(spec.event.event)}`, `lday >= ${days[0]}`, `lday < ${days[upTo]}`];
  const cells =
    `SELECT ${intervalOfDay(plan, days, "lday")} AS i, ${intervalOfDay(plan, days, "prev_lday")} AS pi, ` +
    `${intervalOfDay(plan, days, "first_lday")} AS fi, visitors ` +
    `FROM ${tableRead(s, ACTIVITY_ROLLUP_TABLE, where)}`;
  const sql =
    `SELECT i AS idx, sum(visitors) FILTER (WHERE pi < i) AS active, sum(visitors) FILTER (WHERE pi = i - 1 AND pi >= 0) AS returning, ` +
    `sum(visitors) FILTER (WHERE pi < i AND fi = i) AS new FROM (${cells}) AS c GROUP BY i ORDER BY idx ${d.limit(int(LIFECYCLE_ROW_CAP), 0)}`;
  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}) };
}

/** The rollup statement's rows -> the statuses of grid intervals [1, upTo). */
export function lifecycleRowsFromRollup(upTo: number, rows: readonly LifecycleRollupRow[]): LifecycleRow[] {
  const byIdx = new Map(rows.map((r) => [Number(r.idx), r]));
  const n = (x: number | bigint | null | undefined) => Number(x ?? 0);
  const out: LifecycleRow[] = [];
  for (let j = 1; j < upTo; j++) {
    const r = byIdx.get(j);
    const active = n(r?.active);
    const returning = n(r?.returning);
    const fresh = n(r?.new);
    out.push({
      idx: j,
      new: fresh,
      returning,
      resurrecting: active - returning - fresh,
      // Active the interval before and not in this one: all of them but those returning now.
      dormant: n(byIdx.get(j - 1)?.active) - returning,
    });
  }
  return out;
}

/** A row: one interval's counts; `idx` its place in the plan's grid (0 the lookback, 1 the range's first). */
export interface LifecycleRow {
  idx: number | bigint;
  new: number | bigint;
  returning: number | bigint;
  resurrecting: number | bigint;
  dormant: number | bigint;
}

export function compileLifecycle(
  spec: LifecycleSpec,
  property: string,
  dialect: SqlDialect,
  ctx: CompileContext,
): CompiledLifecycle {
  const plan = planLifecycle(spec, ctx);
  const d = DIALECTS[dialect];
  const p = new Params(d);
  const rollupUpTo = lifecycleRollupUpTo(plan, {
    rollups: d.dayRollups,
    filtered: parseFilters(spec.filters ?? "").length + parseFilters(spec.event.filters ?? "").length > 0,
    through: ctx.dayRollupThrough,
  });
  // The statement answers the intervals the rollup does not, from rollupUpTo on (the one before
  // it its lookback).
  const from = plan.starts[rollupUpTo - 1] as number;
  const to = plan.range.to.getTime();
  const s = new Scope(d, p, property, [{ from, to }], ctx.timezone);
  const match = [
    `name = ${p.add(spec.event.event)}`,
    ...parseFilters(spec.filters ?? "").map((f) => eventCondition(f, p, d)),
    ...parseFilters(spec.event.filters ?? "").map((f) => eventCondition(f, p, d)),
  ];
  const window = [`ts >= ${p.ts(from)}`, `ts < ${p.ts(to)}`, ...match];
  const interval = (ts: string) => d.ordinal(plan.unit, s.bucket(plan.unit, ts));
  // Visitors by the store's visitor key (DuckDB's 64-bit vkey: grouping and the semi-join on it
  // beat the 36-character id).
  const v = d.eventVkey;
  const named = new NamedRows(dialect);
  const active = named.define(
    "active",
    `SELECT ${v} AS visitor, ${interval("ts")} AS i FROM ${tableRead(s, "events", window)} GROUP BY visitor, i`,
  );
  const who = `SELECT visitor FROM ${active} AS aw`;
  // First-ever events before the grid are in no interval of it: only those inside are numbered
  // (the scope's time-zone offsets cover the grid, not all history).
  const firsts =
    `SELECT visitor, ${interval("first_ts")} AS i FROM (SELECT ${v} AS visitor, min(ts) AS first_ts ` +
    `FROM ${tableRead(s, "events", [`ts < ${p.ts(to)}`, `${v} IN (${who})`])} GROUP BY visitor) AS f WHERE first_ts >= ${p.ts(from)}`;
  // Per (visitor, interval): active in it, active the one before, first-ever event in it.
  // (k, not i: a ClickHouse alias may not name a column it reads.)
  // One read of the active rows makes both of theirs (active in i, active the interval before
  // i + 1): ClickHouse 18.16 computes each reference to them again (no named subqueries).
  const marks =
    `SELECT visitor, k, CASE WHEN k = i THEN 1 ELSE 0 END AS act, CASE WHEN k = i THEN 0 ELSE 1 END AS was, 0 AS fst ` +
    `FROM (SELECT visitor, i, ${d.unnest("[i, i + 1]")} AS k FROM ${active} AS a) AS ab ` +
    `UNION ALL SELECT visitor, i AS k, 0 AS act, 0 AS was, 1 AS fst FROM (${firsts}) AS c`;
  const per = `SELECT k, max(act) AS m_act, max(was) AS m_was, max(fst) AS m_fst FROM (${marks}) AS m GROUP BY visitor, k`;
  const base = interval(p.ts(from));
  const sql = named.statement(
    `SELECT k - ${base}${rollupUpTo > 1 ? ` + ${rollupUpTo - 1}` : ""} AS idx, ${d.countIf("m_act = 1 AND m_fst = 1")} AS new, ` +
      `${d.countIf("m_act = 1 AND m_fst = 0 AND m_was = 1")} AS returning, ${d.countIf("m_act = 1 AND m_fst = 0 AND m_was = 0")} AS resurrecting, ` +
      `${d.countIf("m_act = 0 AND m_was = 1")} AS dormant FROM (${per}) AS t GROUP BY k ORDER BY idx ${d.limit(int(LIFECYCLE_ROW_CAP), 0)}`,
  );
  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return {
    sql,
    params,
    ...(keyParams.length > 0 ? { keyParams } : {}),
    dialect,
    plan,
    rollupUpTo,
    rollup: rollupUpTo > 1 ? lifecycleRollupSql(spec, property, plan, rollupUpTo, ctx.timezone) : null,
    rawNeeded: rollupUpTo < 1 + plan.shown,
  };
}

/**
 * The rows of both statements -> each shown interval's counts (dormant negative). The
 * statement's rows before `rollupUpTo` (its lookback) are not answers; the rollup's are.
 */
export function shapeLifecycle(
  plan: LifecyclePlan,
  rows: readonly LifecycleRow[],
  rollup: { upTo: number; rows: readonly LifecycleRollupRow[] } = { upTo: 1, rows: [] },
): LifecycleAnswer {
  const byIdx = new Map(
    [...rows.filter((r) => Number(r.idx) >= rollup.upTo), ...lifecycleRowsFromRollup(rollup.upTo, rollup.rows)].map((r) => [
      Number(r.idx),
      r,
    ]),
  );
  const results: LifecyclePoint[] = plan.grid.slice(1, 1 + plan.shown).map((date, j) => {
    const r = byIdx.get(j + 1);
    return {
      date,
      new: Number(r?.new ?? 0),
      returning: Number(r?.returning ?? 0),
      resurrecting: Number(r?.resurrecting ?? 0),
      // Dormant visitors count down (and 0 stays 0, not -0).
      dormant: r?.dormant ? -Number(r.dormant) : 0,
    };
  });
  return { kind: "lifecycle", interval: plan.unit, results };
}
