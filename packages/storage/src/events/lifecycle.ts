// runLifecycle: where a lifecycle insight spec meets an EventStore. It compiles the spec for the
// store's dialect (@lookout/query stays pure), runs the one statement (active visitor × interval,
// and each such visitor's first-ever event) and finishes the statuses in @lookout/query's
// shapeLifecycle.
import { INSIGHT_COMPILERS, type LifecycleRow, shapeLifecycle } from "@lookout/query";
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
  });
  return shapeLifecycle(compiled.plan, await queryInsight<LifecycleRow>(store, compiled));
}
