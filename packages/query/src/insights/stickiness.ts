// The stickiness insight (DESIGN.md §4 Stickiness, peers.md §1.4): per visitor, the number of
// distinct local intervals of the range in which they did the event; then visitors per number.
// Plain SQL on both dialects (only the bucket differs, in the dialect table); shapeStickiness puts
// every n from 1 to the range's intervals in place and, cumulative, sums "n or more". On DuckDB an
// unfiltered spec reads each visitor's days from visitor_activity (activity-rollup.ts) as far as the
// day rollups' mark, and only the rest of the range (today) from events.
import { insightDateRange, parseFilters, type StickinessAnswer, type StickinessSpec } from "@lookout/schema";
import { activityRollupTo, dayNumberBucket, daysWithin, VISITOR_ACTIVITY_TABLE } from "../activity-rollup.js";
import { bucketLabels, bucketsUpToNow } from "../buckets.js";
import type { CompileContext, CompiledQuery } from "../compiled.js";
import { defaultInterval, resolveDateRange } from "../date-range.js";
import { localDayNumber } from "../day-rollup.js";
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
  /** Where the visitor_activity rows answer the range up to (epoch ms, a local midnight), null when they do not. */
  rollupTo: number | null;
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
  const filtered = parseFilters(spec.filters ?? "").length + parseFilters(spec.event.filters ?? "").length > 0;
  const rollupTo = activityRollupTo(
    { from, to },
    { rollups: d.dayRollups, filtered, through: ctx.dayRollupThrough, timezone: ctx.timezone },
  );
  const limit = d.limit(int(plan.intervals + 1), 0);
  const done = (sql: string): CompiledStickiness => {
    const params = p.usedIn(sql);
    const keyParams = Object.keys(params).filter((n) => p.keyNames.has(n));
    return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}), dialect, plan, rollupTo };
  };
  if (rollupTo !== null) {
    // Each visitor's days of the range from their row, the rest of the range (today) from events;
    // their distinct intervals counted per visitor, as below.
    const bucket = (x: string) => dayNumberBucket(plan.unit, x);
    const fromDay = localDayNumber(ctx.timezone, from);
    const toDay = localDayNumber(ctx.timezone, rollupTo);
    // Days are distinct: a visitor's number of days is their list's length. Weeks and months are
    // counted distinct (list_distinct costs ~5x the length at 10M events, still under a scan).
    const inRange = daysWithin(fromDay, toDay);
    const daily = plan.unit === "day";
    const kept = daily ? inRange : `list_transform(${inRange}, x -> ${bucket("x")})`;
    const rows = `SELECT vkey, ${kept} AS b FROM ${tableRead(s, VISITOR_ACTIVITY_TABLE, [`tz = ${p.add(ctx.timezone)}`, `name = ${p.add(spec.event.event)}`])}`;
    let per = `SELECT ${daily ? "len(b)" : "len(list_distinct(b))"} AS n FROM (${rows}) AS r`;
    if (rollupTo < to) {
      const tail = [`ts >= ${p.ts(rollupTo)}`, `ts < ${p.ts(to)}`, `name = ${p.add(spec.event.event)}`];
      const day = s.bucket("day", "ts");
      const later = `SELECT vkey, list(DISTINCT ${bucket(day)}) AS b FROM ${tableRead(s, "events", tail)} GROUP BY vkey`;
      // The days after the rollups' end are none of theirs.
      const both = "coalesce(r.b, []), coalesce(t.b, [])";
      per =
        `SELECT ${daily ? `len(list_concat(${both}))` : `len(list_distinct(list_concat(${both})))`} AS n ` +
        `FROM (${rows}) AS r FULL OUTER JOIN (${later}) AS t ON r.vkey = t.vkey`;
    }
    return done(`SELECT n AS intervals, count(*) AS visitors FROM (${per}) AS v WHERE n > 0 GROUP BY n ORDER BY n ${limit}`);
  }
  // By the store's visitor key (DuckDB's 64-bit vkey: grouping on it beats the 36-character id).
  const perVisitor = `SELECT ${d.eventVkey} AS visitor, ${d.uniq(s.bucket(plan.unit, "ts"))} AS n FROM ${tableRead(s, "events", where)} GROUP BY ${d.eventVkey}`;
  return done(`SELECT n AS intervals, count(*) AS visitors FROM (${perVisitor}) AS v GROUP BY n ORDER BY n ${limit}`);
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
