// runTrends: where a trends insight spec meets an EventStore. It compiles the spec for the store's
// dialect (@lookout/query stays pure), runs the one statement and shapes the rows into the trends
// answer (DESIGN.md §5): every drawn bucket in place, the formula applied after the SQL.
import { INSIGHT_COMPILERS, shapeTrends, type TrendsRow } from "@lookout/query";
import { type TrendsAnswer, type TrendsSpec, type TrendsSpecInput, TrendsSpecSchema } from "@lookout/schema";
import type { EventReader } from "./event-store.js";
import { queryInsight } from "./insights.js";
import type { StatsContext } from "./stats.js";

export async function runTrends(
  store: EventReader,
  property: string,
  spec: TrendsSpec | TrendsSpecInput,
  ctx: StatsContext,
): Promise<TrendsAnswer> {
  const parsed = TrendsSpecSchema.parse(spec);
  const compiled = INSIGHT_COMPILERS[parsed.kind](parsed, property, store.dialect, {
    timezone: ctx.timezone,
    now: ctx.now ?? new Date(),
    earliest: ctx.earliest,
    dayRollupThrough: ctx.dayRollups === false ? undefined : store.dayRollupThrough?.(property, ctx.timezone),
  });
  return shapeTrends(compiled, await queryInsight<TrendsRow>(store, compiled));
}
