// The Stats API calls of the dashboard (GET /api/v1/stats/*, bearer token through request()):
// aggregate, timeseries, breakdown and realtime visitors for one property. Answers are parsed with
// the shared schemas of @lookout/schema, so a surprise reads as an error in its panel, never as a
// crash; then they are turned into the shapes the panels draw.
import {
  type AggregateAnswer,
  AggregateAnswerSchema,
  type AggregateValue,
  BreakdownAnswerSchema,
  type BreakdownDimension,
  type Comparison,
  type DatePreset,
  type Filter,
  formatFilters,
  type Interval,
  type Metric,
  RealtimeVisitorsAnswerSchema,
  SHARE_HEADER,
  TimeseriesAnswerSchema,
} from "@lookout/schema";
import { request } from "../../lib/http";

export type { AggregateValue };

export interface StatsQuery {
  propertyId: string;
  period: DatePreset;
  /** `YYYY-MM-DD,YYYY-MM-DD`, for period=custom only. */
  date?: string;
  filters: readonly Filter[];
  /** Aggregate and timeseries only. */
  compare?: Comparison | null;
  /** On a shared page (/share/{slug}): the link's slug, the calls' only credential. */
  share?: string;
}

export type Aggregate = AggregateAnswer["results"];

export type MetricValues = Partial<Record<Metric, number>>;
export interface TimeseriesPoint {
  date: string;
  values: MetricValues;
  comparison: { date: string; values: MetricValues } | null;
}

export interface BreakdownRow {
  /** The dimension's value, always as text ("" when not set). */
  value: string;
  values: MetricValues;
}

export class StatsShapeError extends Error {
  constructor(what: string) {
    super(`The server's answer for ${what} had an unexpected shape.`);
    this.name = "StatsShapeError";
  }
}

type Params = Record<string, string | number | null | undefined>;

/** The URL of a Stats API call; every parameter goes through encodeURIComponent. */
export function statsUrl(path: string, q: StatsQuery, extra: Params = {}): string {
  const params: Params = {
    property_id: q.propertyId,
    period: q.period,
    date: q.period === "custom" ? q.date : undefined,
    filters: q.filters.length > 0 ? formatFilters(q.filters) : undefined,
    compare: q.compare ?? undefined,
    ...extra,
  };
  const query = Object.entries(params)
    .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== null && e[1] !== "")
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join("&");
  return `/api/v1/stats/${path}?${query}`;
}

/** What fetchAnswer needs of a schema (zod's safeParse), without importing zod into the app. */
interface AnswerSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

async function fetchAnswer<T>(
  schema: AnswerSchema<T>,
  url: string,
  what: string,
  signal?: AbortSignal,
  share?: string,
): Promise<T> {
  const headers = share === undefined ? undefined : { [SHARE_HEADER]: share };
  const parsed = schema.safeParse(await request("GET", url, { signal, headers }));
  if (!parsed.success) throw new StatsShapeError(what);
  return parsed.data;
}

/** The asked metrics of one row; a metric the server left out counts as 0. */
function metricValues(row: MetricValues, metrics: readonly Metric[]): MetricValues {
  const out: MetricValues = {};
  for (const m of metrics) out[m] = row[m] ?? 0;
  return out;
}

export async function getAggregate(
  q: StatsQuery,
  metrics: readonly Metric[],
  signal?: AbortSignal,
  extra: Params = {},
): Promise<Aggregate> {
  const url = statsUrl("aggregate", q, { metrics: metrics.join(","), ...extra });
  const { results } = await fetchAnswer(AggregateAnswerSchema, url, "aggregate", signal, q.share);
  // Every asked metric must be there: a card without its number would read as zero.
  if (metrics.some((m) => results[m] === undefined)) throw new StatsShapeError("aggregate");
  return results;
}

export async function getTimeseries(
  q: StatsQuery,
  metrics: readonly Metric[],
  interval: Interval,
  signal?: AbortSignal,
): Promise<TimeseriesPoint[]> {
  const url = statsUrl("timeseries", q, { metrics: metrics.join(","), interval });
  const { results } = await fetchAnswer(TimeseriesAnswerSchema, url, "timeseries", signal, q.share);
  return results.map((row) => ({
    date: row.date,
    values: metricValues(row, metrics),
    comparison: row.comparison ? { date: row.comparison.date, values: metricValues(row.comparison, metrics) } : null,
  }));
}

export interface BreakdownOptions {
  metrics: readonly Metric[];
  limit: number;
  page?: number;
  /** `metric:asc|desc` or `dimension:asc|desc`. */
  order?: string;
  goal?: string;
}

export async function getBreakdown(
  q: StatsQuery,
  dimension: BreakdownDimension,
  o: BreakdownOptions,
  signal?: AbortSignal,
): Promise<BreakdownRow[]> {
  const url = statsUrl(
    "breakdown",
    { ...q, compare: null },
    { dimension, metrics: o.metrics.join(","), limit: o.limit, page: o.page ?? 1, order: o.order, goal: o.goal },
  );
  const { results } = await fetchAnswer(BreakdownAnswerSchema, url, "breakdown", signal, q.share);
  return results.map((row) => {
    const values: MetricValues = {};
    for (const m of o.metrics) {
      const v = row[m];
      values[m] = typeof v === "number" ? v : 0;
    }
    return { value: String(row[dimension] ?? ""), values };
  });
}

export async function getRealtimeVisitors(propertyId: string, signal?: AbortSignal, share?: string): Promise<number> {
  const url = `/api/v1/stats/realtime/visitors?property_id=${encodeURIComponent(propertyId)}`;
  return fetchAnswer(RealtimeVisitorsAnswerSchema, url, "realtime visitors", signal, share);
}
