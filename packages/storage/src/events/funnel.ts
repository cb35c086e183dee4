// runFunnel / runFunnelActors: where a funnel insight spec meets an EventStore. Both compile the
// spec for the store's dialect, read the compact per-event rows of the one statement and finish
// the definition in @lookout/query's pure funnel evaluator, so the numbers and the visitor lists
// come from the same outcomes on every engine. A store with visitor timelines (DuckDB) answers
// the funnels they cover from them (funnelFromTimelines): the same evaluator over the same events.
import { type FunnelPackRow, funnelActorMatches, funnelOutcomesOfPacks, INSIGHT_COMPILERS, shapeFunnel } from "@lookout/query";
import {
  type FunnelActorSelector,
  type FunnelAnswer,
  type FunnelSpec,
  type FunnelSpecInput,
  FunnelSpecSchema,
} from "@lookout/schema";
import type { EventReader } from "./event-store.js";
import { type InsightActorIds, queryInsight } from "./insights.js";
import type { StatsContext } from "./stats.js";

const compileContext = (ctx: StatsContext) => ({ timezone: ctx.timezone, now: ctx.now ?? new Date(), earliest: ctx.earliest });

/** Each visitor's outcome, from the answer's packed statement, or with their client ids from the visitors' one. */
async function outcomes(
  store: EventReader,
  property: string,
  spec: FunnelSpec | FunnelSpecInput,
  ctx: StatsContext,
  withClientIds: boolean,
) {
  const parsed = FunnelSpecSchema.parse(spec);
  const compiled = INSIGHT_COMPILERS.funnel(parsed, property, store.dialect, compileContext(ctx));
  const packs = await queryInsight<FunnelPackRow>(store, withClientIds ? compiled.actors : compiled);
  const outcomes = funnelOutcomesOfPacks(compiled.plan, packs, withClientIds);
  return { plan: compiled.plan, outcomes };
}

export async function runFunnel(
  store: EventReader,
  property: string,
  spec: FunnelSpec | FunnelSpecInput,
  ctx: StatsContext,
): Promise<FunnelAnswer> {
  const parsed = FunnelSpecSchema.parse(spec);
  const fromTimelines = await store.funnelFromTimelines?.(property, parsed, compileContext(ctx));
  if (fromTimelines) return fromTimelines;
  const { plan, outcomes: os } = await outcomes(store, property, parsed, ctx, false);
  return shapeFunnel(plan, os);
}

/** The client ids of a step's converted or dropped visitors, by client id (visitors without one cannot be linked). */
export async function runFunnelActors(
  store: EventReader,
  property: string,
  spec: FunnelSpec,
  at: FunnelActorSelector,
  page: { limit: number; offset: number },
  ctx: StatsContext,
): Promise<InsightActorIds> {
  const fromTimelines = await store.funnelActorsFromTimelines?.(
    property,
    FunnelSpecSchema.parse(spec),
    at,
    page,
    compileContext(ctx),
  );
  if (fromTimelines) return fromTimelines;
  const { outcomes: os } = await outcomes(store, property, spec, ctx, true);
  const matched = new Set<string>();
  for (let i = 0; i < os.count; i++) if (os.cidAt(i) !== "" && funnelActorMatches(os, i, at)) matched.add(os.cidAt(i));
  const ids = [...matched].sort();
  const client_ids = ids.slice(page.offset, page.offset + page.limit);
  return { client_ids, has_more: page.offset + page.limit < ids.length };
}
