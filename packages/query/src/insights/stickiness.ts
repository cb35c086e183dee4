// The stickiness insight (DESIGN.md §4 Stickiness, peers.md §1.4): per visitor, the number of
// distinct local intervals of the range in which they did the event; then visitors per number.
// Plain SQL on both dialects (only the bucket differs, in the dialect table); shapeStickiness puts
// every n from 1 to the range's intervals in place and, cumulative, sums "n or more".
import { insightDateRange, parseFilters, type StickinessAnswer, type StickinessSpec } from "@lookout/schema";
import { bucketLabels, bucketsUpToNow } from "../buckets.js";
import type { CompileContext, CompiledQuery } from "../compiled.js";
import { defaultInterval, resolveDateRange } from "../date-range.js";
import { DIALECTS, type SqlDialect } from "../dialects.js";
import { int, Params } from "../params.js";
import { Scope } from "../parts.js";
import { tableRead } from "../relation.js";
import { eventCondition } from "./trends.js";

type Unit = "day" | "week" | "month";

export interface StickinessPlan {
  unit: Unit;
  /** The range's intervals up to the one holding now: n runs from 1 to this. */
  intervals: number;
  cumulative: boolean;
}

export function planStickiness(spec: StickinessSpec, ctx: CompileContext): StickinessPlan & { from: number; to: number } {
  const dateRange = insightDateRange(spec);
  const range = resolveDateRange(dateRange, ctx);
  const asked = spec.interval ?? defaultInterval(dateRange, range);
  const unit: Unit = asked === "week" || asked === "month" ? asked : "day";
  const intervals = bucketsUpToNow(bucketLabels(range, unit, ctx.timezone), unit, ctx.timezone, ctx.now).length;
  return { unit, intervals, cumulative: spec.cumulative, from: range.from.getTime(), to: range.to.getTime() };
}

export interface CompiledStickiness extends CompiledQuery {
  dialect: SqlDialect;
  plan: StickinessPlan;
}

export interface StickinessRow {
  intervals: number | bigint;
  visitors: number | bigint;
}

export function compileStickiness(
  spec: StickinessSpec,
  property: string,
  dialect: SqlDialect,
  ctx: CompileContext,
): CompiledStickiness {
  const { from, to, ...plan } = planStickiness(spec, ctx);
  const d = DIALECTS[dialect];
  const p = new Params(d);
  const s = new Scope(d, p, property, [{ from, to }], ctx.timezone);
  const where = [
    `ts >= ${p.ts(from)}`,
    `ts < ${p.ts(to)}`,
    `name = ${p.add(spec.event.event)}`,
    ...parseFilters(spec.filters ?? "").map((f) => eventCondition(f, p, d)),
    ...parseFilters(spec.event.filters ?? "").map((f) => eventCondition(f, p, d)),
  ];
  // By the store's visitor key (DuckDB's 64-bit vkey: grouping on it beats the 36-character id).
  const perVisitor = `SELECT ${d.eventVkey} AS visitor, ${d.uniq(s.bucket(plan.unit, "ts"))} AS n FROM ${tableRead(s, "events", where)} GROUP BY ${d.eventVkey}`;
  const sql = `SELECT n AS intervals, count(*) AS visitors FROM (${perVisitor}) AS v GROUP BY n ORDER BY n ${d.limit(int(plan.intervals + 1), 0)}`;
  const params = p.usedIn(sql);
  const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
  return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}), dialect, plan };
}

export function shapeStickiness(plan: StickinessPlan, rows: readonly StickinessRow[]): StickinessAnswer {
  const exact = new Array<number>(plan.intervals + 1).fill(0);
  for (const r of rows) {
    const n = Number(r.intervals);
    if (n >= 1 && n <= plan.intervals) exact[n] = Number(r.visitors);
  }
  const results = [];
  let more = 0;
  const out = new Array<number>(plan.intervals + 1).fill(0);
  for (let n = plan.intervals; n >= 1; n--) {
    more += exact[n] ?? 0;
    out[n] = plan.cumulative ? more : (exact[n] ?? 0);
  }
  for (let n = 1; n <= plan.intervals; n++) results.push({ intervals: n, visitors: out[n] ?? 0 });
  return { kind: "stickiness", interval: plan.unit, cumulative: plan.cumulative, results };
}
