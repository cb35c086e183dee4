// The Stats API's query string (README "Stats API") -> the one QuerySpec of @lookout/schema.
// Every problem becomes a 400 that names the parameter, so an API user can fix their call.
import {
  BASE_DIMENSIONS,
  COMPARISONS,
  DATE_PRESETS,
  type Filter,
  FilterGrammarError,
  GOAL_DIMENSION,
  INTERVALS,
  isCalendarDate,
  isPropDimension,
  METRICS,
  type Metric,
  PROPERTY_ID_RE,
  parseFilters as parseFilterText,
  QUERY_LIMITS,
  type QueryKind,
  type QuerySpec,
  type QuerySpecInput,
  QuerySpecSchema,
} from "@lookout/schema";
import { HttpError } from "../http/errors.js";

export const paramError = (param: string, message: string) =>
  new HttpError(400, "invalid_parameter", `${param}: ${message}`, { param });

/** `page==/pricing;country!=US|DE;page~blog` -> filters; the grammar is @lookout/schema's, shared with the web app. */
export function parseFilters(raw: string): Filter[] {
  try {
    return parseFilterText(raw);
  } catch (err) {
    if (err instanceof FilterGrammarError) throw paramError("filters", err.message);
    throw err;
  }
}

/** The inverse of parseFilters (the web app builds the same strings). */
export { formatFilters } from "@lookout/schema";

type Query = Record<string, unknown>;

function one(q: Query, name: string): string | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw paramError(name, "give it once");
  return v;
}

function pick<T extends string>(q: Query, name: string, allowed: readonly T[]): T | undefined {
  const v = one(q, name);
  if (v === undefined || v === "") return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw paramError(name, `must be one of ${allowed.join(", ")}`);
  return v as T;
}

function int(q: Query, name: string, min: number, max: number): number | undefined {
  const v = one(q, name);
  if (v === undefined || v === "") return undefined;
  if (!/^\d{1,9}$/.test(v) || Number(v) < min || Number(v) > max)
    throw paramError(name, `must be a whole number from ${min} to ${max}`);
  return Number(v);
}

export function propertyId(q: Query): string {
  const id = one(q, "property_id");
  if (!id) throw paramError("property_id", "is required");
  if (!PROPERTY_ID_RE.test(id)) throw paramError("property_id", "is not a property id");
  return id;
}

/** Builds and validates the QuerySpec of one Stats API call. */
export function specFromQuery(kind: QueryKind, q: Query): QuerySpec {
  const property = propertyId(q);
  const preset = pick(q, "period", DATE_PRESETS) ?? "last_7_days";
  const date = one(q, "date");
  let from: string | undefined;
  let to: string | undefined;
  if (preset === "custom") {
    const [a, b, ...more] = (date ?? "").split(",");
    if (!a || !b || more.length > 0 || !isCalendarDate(a) || !isCalendarDate(b)) {
      throw paramError("date", "period=custom needs date=YYYY-MM-DD,YYYY-MM-DD");
    }
    if (a > b) throw paramError("date", "the first date must not be after the second");
    [from, to] = [a, b];
  } else if (date) {
    throw paramError("date", "is only for period=custom");
  }
  const metricsRaw = one(q, "metrics");
  const metrics = (metricsRaw ? metricsRaw.split(",") : ["visitors"]).map((m) => m.trim());
  for (const m of metrics)
    if (!(METRICS as readonly string[]).includes(m)) throw paramError("metrics", `unknown metric "${m.slice(0, 40)}"`);
  if (new Set(metrics).size !== metrics.length) throw paramError("metrics", "metrics must be unique");
  const goal = one(q, "goal") || undefined;
  // dimension=goal: one row per goal of the property, which the service fills in (never the caller).
  const goalRows = kind === "breakdown" && one(q, "dimension") === GOAL_DIMENSION;
  if ((metrics.includes("conversions") || metrics.includes("conversion_rate")) && !goal && !goalRows) {
    throw paramError("goal", "conversions and conversion_rate need goal=<custom event name>");
  }
  const common = {
    property,
    date_range: { preset, from, to },
    metrics: metrics as Metric[],
    filters: parseFilters(one(q, "filters") ?? ""),
    goal,
  };
  type Breakdown = Extract<QuerySpecInput, { kind: "breakdown" }>;
  type Goals = Extract<QuerySpecInput, { kind: "goals" }>;
  let spec: QuerySpecInput;
  if (kind !== "breakdown") {
    const compare = pick(q, "compare", COMPARISONS);
    if (compare && preset === "all_time") throw paramError("compare", "all_time has no period to compare with");
    const comparison = compare ?? null;
    spec =
      kind === "timeseries"
        ? { kind, ...common, interval: pick(q, "interval", INTERVALS), comparison }
        : { kind, ...common, comparison };
  } else {
    const dimension = one(q, "dimension");
    if (!dimension) throw paramError("dimension", "is required");
    if (!goalRows && !(BASE_DIMENSIONS as readonly string[]).includes(dimension) && !isPropDimension(dimension)) {
      throw paramError("dimension", `unknown dimension "${dimension.slice(0, 80)}"`);
    }
    const limit = int(q, "limit", 1, QUERY_LIMITS.maxLimit) ?? 100;
    const page = int(q, "page", 1, 1_000_000) ?? 1;
    if ((page - 1) * limit > QUERY_LIMITS.maxOffset) throw paramError("page", "is too far; narrow the query with filters");
    const paging = { limit, offset: (page - 1) * limit };
    const breakdown: Breakdown | Goals = goalRows
      ? { kind: "goals", ...common, goal: undefined, goals: [], ...paging }
      : { kind, ...common, dimensions: [dimension as NonNullable<Breakdown["dimensions"]>[number]], ...paging };
    const order = one(q, "order");
    if (order) {
      const [by, direction = "desc"] = order.split(":");
      if (by !== "dimension" && !metrics.includes(by ?? ""))
        throw paramError("order", "order by a requested metric or by dimension");
      if (direction !== "asc" && direction !== "desc") throw paramError("order", "direction must be asc or desc");
      breakdown.order = { by: by as Metric | "dimension", direction };
    }
    spec = breakdown;
  }
  const parsed = QuerySpecSchema.safeParse(spec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = String(issue?.path[0] ?? "query");
    const param =
      { date_range: "period", dimensions: "dimension", comparison: "compare", offset: "page", goals: "dimension" }[path] ?? path;
    throw paramError(param, issue?.message ?? "invalid");
  }
  return parsed.data;
}
