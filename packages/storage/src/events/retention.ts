// runRetention: where a retention insight spec meets an EventStore. It compiles the spec for the
// store's dialect (@lookout/query stays pure), runs the one statement (per visitor and period:
// started? returned?) and finishes the cohorts in @lookout/query's pure functions, which also
// list the visitors behind one cell (runRetentionActors) from the same rows.
import { INSIGHT_COMPILERS, type RetentionRow, retentionCellVisitors, shapeRetention, visitorPeriods } from "@lookout/query";
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

async function load(store: EventReader, property: string, spec: RetentionSpec | RetentionSpecInput, ctx: StatsContext) {
  const parsed = RetentionSpecSchema.parse(spec);
  const compiled = INSIGHT_COMPILERS[parsed.kind](parsed, property, store.dialect, {
    timezone: ctx.timezone,
    now: ctx.now ?? new Date(),
    earliest: ctx.earliest,
  });
  const rows = await queryInsight<RetentionRow>(store, compiled);
  return { plan: compiled.plan, visitors: visitorPeriods(compiled.plan, rows) };
}

export async function runRetention(
  store: EventReader,
  property: string,
  spec: RetentionSpec | RetentionSpecInput,
  ctx: StatsContext,
): Promise<RetentionAnswer> {
  const { plan, visitors } = await load(store, property, spec, ctx);
  return shapeRetention(plan, visitors);
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
  const { plan, visitors } = await load(store, property, spec, ctx);
  const ids = retentionCellVisitors(plan, visitors, at);
  return { client_ids: ids.slice(page.offset, page.offset + page.limit), has_more: ids.length > page.offset + page.limit };
}
