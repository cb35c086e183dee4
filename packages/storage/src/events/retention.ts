// runRetention: where a retention insight spec meets an EventStore. It compiles the spec for the
// store's dialect (@lookout/query stays pure) and runs the counting statement (each cohort's size
// and cells); the visitors behind one cell (runRetentionActors) come from the per-visitor marks
// (per visitor and period: started? returned?), finished in @lookout/query's pure functions. A
// store with visitor timelines (DuckDB) answers the grids they cover from them instead.
import {
  INSIGHT_COMPILERS,
  type RetentionCountRow,
  type RetentionRow,
  retentionCellVisitors,
  shapeRetentionCounts,
  visitorPeriods,
} from "@lookout/query";
import {
  type RetentionActorSelector,
  type RetentionAnswer,
  type RetentionSpec,
  type RetentionSpecInput,
  RetentionSpecSchema,
} from "@lookout/schema";
import type { EventReader } from "./event-store.js";
import { type InsightActorIds, queryInsight } from "./insights.js";
import type { StatsContext } from "./stats.js";

function compile(store: EventReader, property: string, spec: RetentionSpec | RetentionSpecInput, ctx: StatsContext) {
  const parsed = RetentionSpecSchema.parse(spec);
  return INSIGHT_COMPILERS[parsed.kind](parsed, property, store.dialect, {
    timezone: ctx.timezone,
    now: ctx.now ?? new Date(),
    earliest: ctx.earliest,
    dayRollupThrough: ctx.dayRollups === false ? undefined : store.dayRollupThrough?.(property, ctx.timezone),
  });
}

export async function runRetention(
  store: EventReader,
  property: string,
  spec: RetentionSpec | RetentionSpecInput,
  ctx: StatsContext,
): Promise<RetentionAnswer> {
  if (store.retentionFromTimelines) {
    const ctxNow = { timezone: ctx.timezone, now: ctx.now ?? new Date(), earliest: ctx.earliest };
    const fromTimelines = await store.retentionFromTimelines(property, RetentionSpecSchema.parse(spec), ctxNow);
    if (fromTimelines) return fromTimelines;
  }
  const compiled = compile(store, property, spec, ctx);
  return shapeRetentionCounts(compiled.plan, await queryInsight<RetentionCountRow>(store, compiled));
}

/** The visitors of one cell (cohort date, period), a page of them by client id. */
export async function runRetentionActors(
  store: EventReader,
  property: string,
  spec: RetentionSpec,
  at: RetentionActorSelector,
  page: { limit: number; offset: number },
  ctx: StatsContext,
): Promise<InsightActorIds> {
  const compiled = compile(store, property, spec, ctx);
  const rows = await queryInsight<RetentionRow>(store, compiled.actors);
  const ids = retentionCellVisitors(compiled.plan, visitorPeriods(compiled.plan, rows), at);
  return { client_ids: ids.slice(page.offset, page.offset + page.limit), has_more: ids.length > page.offset + page.limit };
}
