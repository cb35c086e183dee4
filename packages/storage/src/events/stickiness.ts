// runStickiness: where a stickiness insight spec meets an EventStore: compile for the store's
// dialect, run the one statement (visitors per number of active intervals), or ask the store's
// visitor timelines where its rollups do not answer; fill every n.
import { INSIGHT_COMPILERS, type StickinessRow, shapeStickiness } from "@lookout/query";
import { type StickinessAnswer, type StickinessSpec, type StickinessSpecInput, StickinessSpecSchema } from "@lookout/schema";
import type { EventReader } from "./event-store.js";
import { queryInsight } from "./insights.js";
import type { StatsContext } from "./stats.js";

export async function runStickiness(
  store: EventReader,
  property: string,
  spec: StickinessSpec | StickinessSpecInput,
  ctx: StatsContext,
): Promise<StickinessAnswer> {
  const parsed = StickinessSpecSchema.parse(spec);
  const compiled = INSIGHT_COMPILERS[parsed.kind](parsed, property, store.dialect, {
    timezone: ctx.timezone,
    now: ctx.now ?? new Date(),
    earliest: ctx.earliest,
    dayRollupThrough: ctx.dayRollups === false ? undefined : store.dayRollupThrough?.(property, ctx.timezone),
  });
  // DuckDB's activity rollups answer an unfiltered spec at once; otherwise the visitor timelines, where the store keeps them.
  if (compiled.rollupTo === null && store.stickinessFromTimelines) {
    const ctxNow = { timezone: ctx.timezone, now: ctx.now ?? new Date(), earliest: ctx.earliest };
    const fromTimelines = await store.stickinessFromTimelines(property, parsed, ctxNow);
    if (fromTimelines) return fromTimelines;
  }
  return shapeStickiness(compiled.plan, await queryInsight<StickinessRow>(store, compiled));
}
