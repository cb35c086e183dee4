// runTrends: where a trends insight spec meets an EventStore. It compiles the spec for the store's
// dialect (@lookout/query stays pure), runs the one statement and shapes the rows into the trends
// answer (DESIGN.md §5): every drawn bucket in place, the formula applied after the SQL.
import { INSIGHT_COMPILERS, QueryError, shapeTrends, type TrendsRow } from "@lookout/query";
import { type TrendsAnswer, type TrendsSpec, type TrendsSpecInput, TrendsSpecSchema } from "@lookout/schema";
import type { EventStore } from "./event-store.js";
import type { StatsContext } from "./stats.js";

const REGEX_ERROR = /regex|regular expression|re2|invalid escape sequence|repetition|invalid perl operator/i;

export async function runTrends(
  store: EventStore,
  property: string,
  spec: TrendsSpec | TrendsSpecInput,
  ctx: StatsContext,
): Promise<TrendsAnswer> {
  const parsed = TrendsSpecSchema.parse(spec);
  const compiled = INSIGHT_COMPILERS[parsed.kind](parsed, property, store.dialect, {
    timezone: ctx.timezone,
    now: ctx.now ?? new Date(),
    earliest: ctx.earliest,
  });
  let rows: TrendsRow[];
  try {
    rows = await store.query<TrendsRow>(compiled);
  } catch (err) {
    // An RE2-invalid regex that JavaScript accepted is bad input, not a server error.
    const msg = err instanceof Error ? err.message : String(err);
    if (REGEX_ERROR.test(msg)) throw new QueryError("invalid_regex", "invalid regular expression", "filters");
    throw err;
  }
  return shapeTrends(compiled, rows);
}
