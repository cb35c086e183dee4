// The lifecycle insight (DESIGN.md §4 Lifecycle, peers.md §1.5). One statement: per visitor and
// local interval of the range (plus one interval before it, the lookback) whether the visitor did
// the event, and, UNION ALL, each such visitor's first-ever event (any event, all history up to the
// range's end: DESIGN.md's stand-in for a creation date). The statuses are finished in TypeScript
// (shapeLifecycle), a pure function of those rows.
//
// Rules pinned (tests say which): new = active in an interval holding the visitor's first-ever
// event; returning = active this interval and the previous one; resurrecting = active, not the
// previous interval, first-ever event earlier (so a visitor created before their first chosen event
// is resurrecting, peers.md §1.5); dormant = active the previous interval, not this one (negative).
import { insightDateRange, type LifecycleAnswer, type LifecyclePoint, type LifecycleSpec, parseFilters } from "@lookout/schema";
import { bucketLabels, bucketsUpToNow } from "../buckets.js";
import type { CompileContext, CompiledQuery } from "../compiled.js";
import { defaultInterval, type ResolvedRange, resolveDateRange } from "../date-range.js";
import { DIALECTS, type SqlDialect } from "../dialects.js";
import { QueryError } from "../errors.js";
import { int, Params } from "../params.js";
import { Scope } from "../parts.js";
import { tableRead } from "../relation.js";
import { addDays, addMonths, formatDay, parseDay, startOfDay } from "../tz.js";
import { eventCondition } from "./trends.js";

export const LIFECYCLE_ROW_CAP = 5_000_000;
type Unit = "day" | "week" | "month";

/** What lifecycle says differently per dialect beyond the shared Dialect table. */
const EPOCH_MS: Record<SqlDialect, string> = {
  duckdb: "epoch_ms(ts)",
  // ts holds whole seconds, ts_ms the milliseconds (dialects.ts header).
  clickhouse: "(toUInt64(ts) * 1000 + ts_ms)",
};

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

export interface CompiledLifecycle extends CompiledQuery {
  dialect: SqlDialect;
  plan: LifecyclePlan;
}

/** A row: an active (visitor, interval) with bucket set, or a visitor's first-ever event with bucket ''. */
export interface LifecycleRow {
  /** The store's visitor key (a string in ClickHouse, a 64-bit integer in DuckDB). */
  visitor: string | number | bigint;
  bucket: string;
  first_ms: number | bigint | string;
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
  const from = plan.starts[0] as number;
  const to = plan.range.to.getTime();
  const s = new Scope(d, p, property, [{ from, to }], ctx.timezone);
  const match = [
    `name = ${p.add(spec.event.event)}`,
    ...parseFilters(spec.filters ?? "").map((f) => eventCondition(f, p, d)),
    ...parseFilters(spec.event.filters ?? "").map((f) => eventCondition(f, p, d)),
  ];
  const window = [`ts >= ${p.ts(from)}`, `ts < ${p.ts(to)}`, ...match];
  const ms = EPOCH_MS[dialect];
  const k = s.bucket(plan.unit, "ts");
  // Visitors by the store's visitor key (DuckDB's 64-bit vkey: grouping and the semi-join on it
  // beat the 36-character id).
  const v = d.eventVkey;
  const active = `SELECT ${v} AS visitor, ${d.label(plan.unit, k)} AS bucket, min(${ms}) AS first_ms FROM ${tableRead(s, "events", window)} GROUP BY ${v}, ${k}`;
  const who = `SELECT ${v} FROM ${tableRead(s, "events", window)}`;
  const firsts = `SELECT ${v} AS visitor, '' AS bucket, min(${ms}) AS first_ms FROM ${tableRead(s, "events", [`ts < ${p.ts(to)}`, `${v} IN (${who})`])} GROUP BY ${v}`;
  const sql = `SELECT * FROM (${active} UNION ALL ${firsts}) AS t ${d.limit(int(LIFECYCLE_ROW_CAP), 0)}`;
  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}), dialect, plan };
}

/** The rows -> each shown interval's counts (dormant negative). */
export function shapeLifecycle(plan: LifecyclePlan, rows: readonly LifecycleRow[]): LifecycleAnswer {
  if (rows.length >= LIFECYCLE_ROW_CAP) {
    throw new QueryError("too_many_rows", "too many visitors for one lifecycle chart; choose a shorter range", "period");
  }
  const index = new Map(plan.grid.map((l, i) => [l, i]));
  const visitors = new Map<string | number | bigint, { active: Set<number>; first: number }>();
  const of = (id: string | number | bigint) => {
    let v = visitors.get(id);
    if (!v) {
      v = { active: new Set(), first: Number.POSITIVE_INFINITY };
      visitors.set(id, v);
    }
    return v;
  };
  for (const r of rows) {
    const v = of(r.visitor);
    if (r.bucket === "") v.first = Math.min(v.first, Number(r.first_ms));
    else {
      const i = index.get(r.bucket);
      if (i !== undefined) v.active.add(i);
    }
  }
  const points: LifecyclePoint[] = plan.grid
    .slice(1, 1 + plan.shown)
    .map((date) => ({ date, new: 0, returning: 0, resurrecting: 0, dormant: 0 }));
  for (const v of visitors.values()) {
    for (let i = 1; i <= plan.shown; i++) {
      const pt = points[i - 1] as LifecyclePoint;
      const was = v.active.has(i - 1);
      if (!v.active.has(i)) {
        if (was) pt.dormant -= 1;
      } else if (v.first >= (plan.starts[i] as number) && v.first < (plan.starts[i + 1] as number)) pt.new += 1;
      else if (was) pt.returning += 1;
      else pt.resurrecting += 1;
    }
  }
  return { kind: "lifecycle", interval: plan.unit, results: points };
}
