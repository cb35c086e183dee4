// runStats: the one place a QuerySpec meets an EventStore. It compiles the spec for the store's
// dialect (@lookout/query stays pure), runs it, and shapes the rows for the API:
//   aggregate  -> { visitors: { value, comparison, change }, ... }  (change in %, null when the
//                 comparison is 0 or there is no comparison)
//   timeseries -> [{ date, visitors, ..., comparison?: { date, visitors, ... } | null }] with every
//                 bucket present, comparison buckets aligned by position
//   breakdown  -> [{ <dimension>: value, visitors, ... }]
//   goals      -> [{ goal: <display name>, visitors, events, ... }], one row per goal
import { type CompiledStats, compileQuery, dayRowsThrough, QueryError, type SettledVisits } from "@lookout/query";
import { type Metric, type QuerySpec, type QuerySpecInput, QuerySpecSchema } from "@lookout/schema";
import type { EventReader } from "./event-store.js";

export interface StatsContext {
  /** The property's IANA timezone. */
  timezone: string;
  /** Defaults to the current time. */
  now?: Date;
  /** Where all_time starts (the property's creation). */
  earliest?: Date;
  /** Read whole days from the store's day rollups where it has them (default true). */
  dayRollups?: boolean;
}

export interface MetricValue {
  value: number;
  comparison: number | null;
  change: number | null;
}
export type AggregateResult = Partial<Record<Metric, MetricValue>>;
export type MetricValues = Partial<Record<Metric, number>>;
export type TimeseriesPoint = MetricValues & { date: string; comparison?: (MetricValues & { date: string }) | null };
export type BreakdownRow = Record<string, string | number>;
export type StatsResult = AggregateResult | TimeseriesPoint[] | BreakdownRow[];

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

/** Rounding as shown: counts whole, rates to 0.1 %, durations to whole seconds. */
const PRESENT: Record<Metric, (v: number) => number> = {
  visitors: Math.round,
  visits: Math.round,
  pageviews: Math.round,
  views_per_visit: (v) => round(v, 2),
  bounce_rate: (v) => round(v, 1),
  visit_duration: Math.round,
  events: Math.round,
  conversions: Math.round,
  conversion_rate: (v) => round(v, 1),
  time_on_page: Math.round,
};

type Row = Record<string, unknown>;

function metricValues(metrics: readonly Metric[], row: Row | undefined): MetricValues {
  const out: MetricValues = {};
  for (const m of metrics) {
    const v = row?.[m];
    out[m] = PRESENT[m](typeof v === "number" && Number.isFinite(v) ? v : 0);
  }
  return out;
}

export function percentChange(value: number, comparison: number | null): number | null {
  if (comparison === null || comparison === 0) return null;
  return round(((value - comparison) / comparison) * 100, 1);
}

export function shapeResults(c: CompiledStats, rows: Row[]): StatsResult {
  if (c.kind === "breakdown" || c.kind === "goals") {
    const name = c.dimension ?? "dimension";
    return rows.map((r) => ({ [name]: String(r.dim ?? ""), ...metricValues(c.metrics, r) }) as BreakdownRow);
  }
  const byPeriod = (p: number) => rows.filter((r) => Number(r.period ?? 0) === p);
  if (c.kind === "aggregate") {
    const cur = metricValues(c.metrics, byPeriod(0)[0]);
    const cmp = c.comparison ? metricValues(c.metrics, byPeriod(1)[0]) : null;
    const out: AggregateResult = {};
    for (const m of c.metrics) {
      const value = cur[m] ?? 0;
      const comparison = cmp ? (cmp[m] ?? 0) : null;
      out[m] = { value, comparison, change: percentChange(value, comparison) };
    }
    return out;
  }
  const index = (p: number) => new Map(byPeriod(p).map((r) => [String(r.bucket), r]));
  const cur = index(0);
  const cmp = index(1);
  return c.buckets.map((date, i) => {
    const point: TimeseriesPoint = { date, ...metricValues(c.metrics, cur.get(date)) };
    if (c.comparison) {
      const cdate = c.comparisonBuckets[i];
      point.comparison = cdate === undefined ? null : { date: cdate, ...metricValues(c.metrics, cmp.get(cdate)) };
    }
    return point;
  });
}

/**
 * RE2's error texts (re2.cc, as DuckDB passes them on: "Invalid Input Error: invalid repetition
 * size: {1001}") and the engines' own wording (ClickHouse: "cannot compile re2").
 */
const REGEX_ERROR =
  /regex|regular expression|re2|invalid escape sequence|invalid character class|missing [\])]|unexpected \)|trailing \\|no argument for repetition operator|invalid repetition size|bad repetition operator|invalid perl operator|invalid UTF-8|invalid named capture group/i;

/** Engine errors a valid spec can still cause (an RE2-invalid regex) become a 400. */
function translate(err: unknown, spec: QuerySpec): unknown {
  const msg = err instanceof Error ? err.message : String(err);
  if (spec.filters.some((f) => f.op === "matches") && REGEX_ERROR.test(msg))
    return new QueryError("invalid_regex", "invalid regular expression", "filters");
  return err;
}

export function compileFor(store: EventReader, spec: QuerySpec | QuerySpecInput, ctx: StatsContext): CompiledStats {
  return compileParsed(store, QuerySpecSchema.parse(spec), ctx);
}

function compileParsed(store: EventReader, spec: QuerySpec, ctx: StatsContext, settledVisits?: SettledVisits): CompiledStats {
  return compileQuery(spec, store.dialect, {
    timezone: ctx.timezone,
    now: ctx.now ?? new Date(),
    earliest: ctx.earliest,
    // DuckDB answers where its day rows end; ClickHouse's come with its settled visits (clickhouse-day-rows.ts).
    dayRollupThrough:
      ctx.dayRollups === false
        ? undefined
        : (store.dayRollupThrough?.(spec.property, ctx.timezone) ?? dayRowsThrough(settledVisits, spec.property, ctx.timezone)),
    settledVisits,
  });
}

export async function runStats(store: EventReader, spec: QuerySpec | QuerySpecInput, ctx: StatsContext): Promise<StatsResult> {
  const parsed = QuerySpecSchema.parse(spec);
  // A property without goals has no goal rows: nothing to ask the store.
  if (parsed.kind === "goals" && parsed.goals.length === 0) return [];
  const compiled = compileParsed(store, parsed, ctx, await store.settledVisits?.());
  let rows: Row[];
  try {
    rows = await store.query<Row>(compiled);
  } catch (err) {
    throw translate(err, parsed);
  }
  return shapeResults(compiled, rows);
}
