// The Stats API client (GET /api/v1/stats/*, bearer token through request()): aggregate,
// timeseries, breakdown and realtime visitors for one property. Answers are checked for shape
// before use so a surprise reads as an error in its panel, never as a crash.
import {
  BASE_DIMENSIONS,
  type Comparison,
  type DatePreset,
  type Dimension,
  type Filter,
  type FilterOp,
  type Interval,
  isPropDimension,
  type Metric,
} from "@lookout/schema";
import { request } from "./http";

// --- filters: `dimension OP value[|value...]`, `;`-separated; `\` escapes `;`, `|` and `\` in values.

/** Operators, longest first so `!=` is not read as `=` and `!~` not as `~`. */
const OPERATORS: readonly [string, FilterOp][] = [
  ["==", "is"],
  ["!=", "is_not"],
  ["!~", "not_contains"],
  ["=~", "matches"],
  ["~", "contains"],
];
const SYMBOL = Object.fromEntries(OPERATORS.map(([s, op]) => [op, s])) as Record<FilterOp, string>;

export function isDimension(d: string): d is Dimension {
  return (BASE_DIMENSIONS as readonly string[]).includes(d) || isPropDimension(d);
}

const escapeValue = (v: string) => v.replace(/[\\;|]/g, (c) => `\\${c}`);

/** Splits on unescaped `sep`; `dropEscapes` removes the backslashes (the last split), else keeps them. */
function split(s: string, sep: string, dropEscapes: boolean): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "\\" && i + 1 < s.length) {
      cur += dropEscapes ? s[i + 1] : c + s[i + 1];
      i++;
    } else if (c === sep) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

export function formatFilters(filters: readonly Filter[]): string {
  return filters.map((f) => `${f.dimension}${SYMBOL[f.op]}${f.values.map(escapeValue).join("|")}`).join(";");
}

/**
 * Reads filters text. Parts that are not `dimension OP values` with a known dimension are skipped
 * (a hand-edited URL should not break the page); the server judges the rest (a bad regex is its 400).
 */
export function parseFilters(raw: string | null | undefined): Filter[] {
  if (!raw) return [];
  const out: Filter[] = [];
  for (const part of split(raw, ";", false)) {
    const at = part.search(/[=!~]/);
    if (at <= 0) continue;
    const dimension = part.slice(0, at).trim();
    const rest = part.slice(at);
    const op = OPERATORS.find(([sym]) => rest.startsWith(sym));
    if (!op || !isDimension(dimension)) continue;
    out.push({ dimension, op: op[1], values: split(rest.slice(op[0].length), "|", true) });
  }
  return out;
}

export interface StatsQuery {
  propertyId: string;
  period: DatePreset;
  /** `YYYY-MM-DD,YYYY-MM-DD`, for period=custom only. */
  date?: string;
  filters: readonly Filter[];
  /** Aggregate and timeseries only. */
  compare?: Comparison | null;
}

export interface AggregateValue {
  value: number;
  comparison: number | null;
  /** Percent; null without a comparison or when the comparison is 0. */
  change: number | null;
}
export type Aggregate = Partial<Record<Metric, AggregateValue>>;

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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function metricValues(row: Record<string, unknown>, metrics: readonly Metric[]): MetricValues {
  const out: MetricValues = {};
  for (const m of metrics) out[m] = num(row[m]) ?? 0;
  return out;
}

function results(data: unknown, what: string): unknown {
  if (!isRecord(data) || !("results" in data)) throw new StatsShapeError(what);
  return data.results;
}

export async function getAggregate(q: StatsQuery, metrics: readonly Metric[], extra: Params = {}): Promise<Aggregate> {
  const res = results(await request("GET", statsUrl("aggregate", q, { metrics: metrics.join(","), ...extra })), "aggregate");
  if (!isRecord(res)) throw new StatsShapeError("aggregate");
  const out: Aggregate = {};
  for (const m of metrics) {
    const v = res[m];
    if (!isRecord(v) || num(v.value) === null) throw new StatsShapeError("aggregate");
    out[m] = { value: num(v.value) ?? 0, comparison: num(v.comparison), change: num(v.change) };
  }
  return out;
}

export async function getTimeseries(q: StatsQuery, metrics: readonly Metric[], interval: Interval): Promise<TimeseriesPoint[]> {
  const res = results(await request("GET", statsUrl("timeseries", q, { metrics: metrics.join(","), interval })), "timeseries");
  if (!Array.isArray(res)) throw new StatsShapeError("timeseries");
  return res.map((row: unknown) => {
    if (!isRecord(row) || typeof row.date !== "string") throw new StatsShapeError("timeseries");
    const c = row.comparison;
    return {
      date: row.date,
      values: metricValues(row, metrics),
      comparison: isRecord(c) && typeof c.date === "string" ? { date: c.date, values: metricValues(c, metrics) } : null,
    };
  });
}

export interface BreakdownOptions {
  metrics: readonly Metric[];
  limit: number;
  page?: number;
  /** `metric:asc|desc` or `dimension:asc|desc`. */
  order?: string;
  goal?: string;
}

export async function getBreakdown(q: StatsQuery, dimension: Dimension, o: BreakdownOptions): Promise<BreakdownRow[]> {
  const url = statsUrl(
    "breakdown",
    { ...q, compare: null },
    { dimension, metrics: o.metrics.join(","), limit: o.limit, page: o.page ?? 1, order: o.order, goal: o.goal },
  );
  const res = results(await request("GET", url), "breakdown");
  if (!Array.isArray(res)) throw new StatsShapeError("breakdown");
  return res.map((row: unknown) => {
    if (!isRecord(row)) throw new StatsShapeError("breakdown");
    const v = row[dimension];
    return { value: v === null || v === undefined ? "" : String(v), values: metricValues(row, o.metrics) };
  });
}

export async function getRealtimeVisitors(propertyId: string): Promise<number> {
  const n = num(await request("GET", `/api/v1/stats/realtime/visitors?property_id=${encodeURIComponent(propertyId)}`));
  if (n === null) throw new StatsShapeError("realtime visitors");
  return n;
}
