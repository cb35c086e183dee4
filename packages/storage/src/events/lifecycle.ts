// runLifecycle: where a lifecycle insight spec meets an EventStore. It compiles the spec for the
// store's dialect (@lookout/query stays pure), runs its statements (the intervals the activity
// rollups hold, from them; the rest from events: active visitor × interval, and each such
// visitor's first-ever event), or asks the store's visitor timelines where its rollups do not
// answer, and finishes the statuses in @lookout/query's shapeLifecycle.
import { INSIGHT_COMPILERS, type LifecycleRollupRow, type LifecycleRow, shapeLifecycle } from "@lookout/query";
import { type LifecycleAnswer, type LifecycleSpec, type LifecycleSpecInput, LifecycleSpecSchema } from "@lookout/schema";
import type { EventReader } from "./event-store.js";
import { queryInsight } from "./insights.js";
import type { StatsContext } from "./stats.js";

export async function runLifecycle(
  store: EventReader,
  property: string,
  spec: LifecycleSpec | LifecycleSpecInput,
  ctx: StatsContext,
): Promise<LifecycleAnswer> {
  const parsed = LifecycleSpecSchema.parse(spec);
  const compiled = INSIGHT_COMPILERS[parsed.kind](parsed, property, store.dialect, {
    timezone: ctx.timezone,
    now: ctx.now ?? new Date(),
    earliest: ctx.earliest,
    dayRollupThrough: ctx.dayRollups === false ? undefined : store.dayRollupThrough?.(property, ctx.timezone),
  });
  // DuckDB's activity rollups answer an unfiltered spec; otherwise the visitor timelines, where the store keeps them.
  if (compiled.rollupUpTo === 1 && store.lifecycleFromTimelines) {
    const ctxNow = { timezone: ctx.timezone, now: ctx.now ?? new Date(), earliest: ctx.earliest };
    const fromTimelines = await store.lifecycleFromTimelines(property, parsed, ctxNow);
    if (fromTimelines) return fromTimelines;
  }
  const [raw, rollup] = await Promise.all([
    compiled.rawNeeded ? queryInsight<LifecycleRow>(store, compiled) : [],
    compiled.rollup ? queryInsight<LifecycleRollupRow>(store, compiled.rollup) : [],
  ]);
  return shapeLifecycle(compiled.plan, raw, { upTo: compiled.rollupUpTo, rows: rollup });
}
