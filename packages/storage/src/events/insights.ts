// runInsight: where any insight spec meets an EventStore. One runner per kind of @lookout/schema's
// InsightSpec union, in a record the type checker proves complete (a new kind: its runner file
// beside trends.ts, one line below). Each runner compiles for the store's dialect, runs its
// statements through `queryInsight` and shapes the rows into its kind's answer.
import { QueryError } from "@lookout/query";
import { type InsightAnswerOf, type InsightKind, type InsightSpec, InsightSpecSchema } from "@lookout/schema";
import type { CompiledQuery } from "@lookout/query";
import type { EventStore } from "./event-store.js";
import type { StatsContext } from "./stats.js";
import { runTrends } from "./trends.js";

type SpecOf<K extends InsightKind> = Extract<InsightSpec, { kind: K }>;
export type InsightRunner<K extends InsightKind> = (
  store: EventStore,
  property: string,
  spec: SpecOf<K>,
  ctx: StatsContext,
) => Promise<InsightAnswerOf<K>>;

export const INSIGHT_RUNNERS: { readonly [K in InsightKind]: InsightRunner<K> } = {
  trends: runTrends,
};

/** Runs a spec of any kind (validated here, so callers may pass the raw body). */
export async function runInsight(
  store: EventStore,
  property: string,
  spec: InsightSpec,
  ctx: StatsContext,
): Promise<InsightAnswerOf<InsightKind>> {
  const parsed = InsightSpecSchema.parse(spec);
  const runner = INSIGHT_RUNNERS[parsed.kind] as InsightRunner<typeof parsed.kind>;
  return runner(store, property, parsed, ctx);
}

const REGEX_ERROR = /regex|regular expression|re2|invalid escape sequence|repetition|invalid perl operator/i;

/** Runs one compiled insight statement; an RE2-invalid regex that JavaScript accepted is bad input, not a server error. */
export async function queryInsight<Row>(store: EventStore, compiled: CompiledQuery): Promise<Row[]> {
  try {
    return await store.query<Row>(compiled);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (REGEX_ERROR.test(msg)) throw new QueryError("invalid_regex", "invalid regular expression", "filters");
    throw err;
  }
}
