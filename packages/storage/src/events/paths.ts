// runPaths / runPathsActors: where a paths insight spec meets an EventStore. Both compile the spec
// for the store's dialect (@lookout/query stays pure). The answer's statement walks the paths in
// the engine and sends the top edges (shapePathsCounts); the visitors at one node come from a row
// per visit with its items in order, walked by @lookout/query's pure functions (pathsActorIds).
import {
  INSIGHT_COMPILERS,
  type PathsCountRow,
  type PathsRow,
  pathsActorIds,
  pathsRollupSpec,
  QueryError,
  shapePathsCounts,
} from "@lookout/query";
import { type PathsActorSelector, type PathsAnswer, type PathsSpec, type PathsSpecInput, PathsSpecSchema } from "@lookout/schema";
import type { EventReader } from "./event-store.js";
import { type InsightActorIds, queryInsight } from "./insights.js";
import type { StatsContext } from "./stats.js";

async function compile(store: EventReader, property: string, spec: PathsSpec | PathsSpecInput, ctx: StatsContext) {
  const parsed = PathsSpecSchema.parse(spec);
  const rows = ctx.dayRollups !== false;
  // ClickHouse: its path rows' bound comes with the settled batches the statement binds (read only
  // for a spec the rows can answer).
  const settledVisits = rows && pathsRollupSpec(parsed) ? await store.settledVisits?.() : undefined;
  return INSIGHT_COMPILERS[parsed.kind](parsed, property, store.dialect, {
    timezone: ctx.timezone,
    now: ctx.now ?? new Date(),
    earliest: ctx.earliest,
    dayRollupThrough: rows ? store.dayRollupThrough?.(property, ctx.timezone) : undefined,
    settledVisits,
  });
}

async function visitRows(store: EventReader, property: string, spec: PathsSpec | PathsSpecInput, ctx: StatsContext) {
  const compiled = await compile(store, property, spec, ctx);
  const rows = await queryInsight<PathsRow>(store, compiled.actors);
  // A full page would leave visits out: an answer that is not exact is refused instead.
  if (rows.length >= compiled.cap) {
    throw new QueryError(
      "too_many_visits",
      "too many visits for one paths answer: choose a shorter range or a start point",
      "period",
    );
  }
  return { compiled, rows };
}

export async function runPaths(
  store: EventReader,
  property: string,
  spec: PathsSpec | PathsSpecInput,
  ctx: StatsContext,
): Promise<PathsAnswer> {
  return shapePathsCounts(await queryInsight<PathsCountRow>(store, await compile(store, property, spec, ctx)));
}

export async function runPathsActors(
  store: EventReader,
  property: string,
  spec: PathsSpec,
  at: PathsActorSelector,
  page: { limit: number; offset: number },
  ctx: StatsContext,
): Promise<InsightActorIds> {
  const { compiled, rows } = await visitRows(store, property, spec, ctx);
  const ids = pathsActorIds(compiled, rows, at);
  return { client_ids: ids.slice(page.offset, page.offset + page.limit), has_more: ids.length > page.offset + page.limit };
}
