// Test support (no runtime use): the representative specs whose printed SQL is snapshotted
// (compile.test.ts), and the helpers the compiler tests share. Every value a spec carries holds
// MARK, which must never reach SQL text.
import { type Dimension, METRICS, type QuerySpecInput, QuerySpecSchema } from "@lookout/schema";
import type { CompileContext, CompiledStats } from "./compiled.js";
import type { SqlDialect } from "./dialects.js";
import { compileQuery } from "./kinds/index.js";
import { prettySql } from "./sql-checks.js";

export const DIALECTS: SqlDialect[] = ["duckdb", "clickhouse"];
/** A marker that must never reach SQL text: each value the tests pass contains it. */
export const MARK = "Qx7Mark";
export const PROPERTY = `${MARK}Prop`;
/** Berlin, a few days after the spring-forward change, so the 90-day charts span it. */
export const CTX: CompileContext = { timezone: "Europe/Berlin", now: new Date("2024-04-03T10:30:00Z") };
export const MAX_ROWS = 2 * 1500;

export const v = (s: string) => `${MARK}${s}' OR '1'='1`;

/** A spec of any kind without its property: the tests' own is filled in. */
export type SpecIn = QuerySpecInput extends infer S
  ? S extends unknown
    ? Omit<S, "property"> & { property?: string }
    : never
  : never;

export function compile(spec: SpecIn, dialect: SqlDialect, ctx: CompileContext = CTX): CompiledStats {
  return compileQuery(QuerySpecSchema.parse({ property: PROPERTY, ...spec }), dialect, ctx);
}

/** A snapshot file's text: the bound parameters, then the SQL laid out by prettySql. */
export function snapshotText(c: CompiledStats): string {
  const head = Object.entries(c.params)
    .map(([k, val]) => `-- ${k} = ${JSON.stringify(val)}${c.keyParams?.includes(k) ? " (bound as the property's key)" : ""}`)
    .join("\n");
  return `${head}\n${prettySql(c.sql)}\n`;
}

export const CASES: Record<string, QuerySpecInput> = {
  aggregate_all_metrics_previous_period: {
    kind: "aggregate",
    property: PROPERTY,
    date_range: { preset: "last_7_days" },
    comparison: "previous_period",
    metrics: [...METRICS],
    goal: v("goal"),
  },
  aggregate_year_over_year: {
    kind: "aggregate",
    property: PROPERTY,
    date_range: { preset: "month_to_date" },
    comparison: "year_over_year",
    metrics: ["visitors", "visits", "pageviews"],
  },
  aggregate_custom_no_comparison: {
    kind: "aggregate",
    property: PROPERTY,
    date_range: { preset: "custom", from: "2024-01-01", to: "2024-01-31" },
    metrics: ["visitors", "bounce_rate", "visit_duration"],
  },
  timeseries_minute_today: {
    kind: "timeseries",
    property: PROPERTY,
    date_range: { preset: "today" },
    interval: "minute",
    metrics: ["visitors", "pageviews"],
  },
  timeseries_hour_yesterday: {
    kind: "timeseries",
    property: PROPERTY,
    date_range: { preset: "yesterday" },
    interval: "hour",
    metrics: ["visitors", "visits"],
  },
  timeseries_day_previous_period: {
    kind: "timeseries",
    property: PROPERTY,
    date_range: { preset: "last_30_days" },
    interval: "day",
    comparison: "previous_period",
    metrics: ["visitors", "pageviews", "bounce_rate"],
  },
  timeseries_week_dst: {
    kind: "timeseries",
    property: PROPERTY,
    date_range: { preset: "last_90_days" },
    interval: "week",
    metrics: ["visitors"],
  },
  timeseries_month_year_over_year: {
    kind: "timeseries",
    property: PROPERTY,
    date_range: { preset: "last_12_months" },
    interval: "month",
    comparison: "year_over_year",
    metrics: ["visitors", "conversions"],
    goal: v("goal"),
  },
  breakdown_session_source: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["source"],
    metrics: ["visitors", "visits", "bounce_rate", "visit_duration"],
    limit: 10,
    offset: 20,
  },
  breakdown_session_country_filtered_same: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["country"],
    metrics: ["visitors"],
    filters: [{ dimension: "country", op: "is", values: [v("country")] }],
  },
  breakdown_entry_page: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["entry_page"],
    metrics: ["visitors", "bounce_rate"],
    order: { by: "bounce_rate", direction: "asc" },
  },
  breakdown_page: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["page"],
    metrics: ["visitors", "pageviews", "time_on_page", "bounce_rate", "events"],
  },
  breakdown_page_filtered_by_page: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["page"],
    metrics: ["visitors", "pageviews"],
    filters: [
      { dimension: "page", op: "contains", values: [v("blog")] },
      { dimension: "page", op: "is_not", values: [v("/admin")] },
    ],
  },
  breakdown_event_name: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["event_name"],
    metrics: ["visitors", "events", "conversion_rate"],
    goal: v("goal"),
    order: { by: "dimension", direction: "asc" },
  },
  breakdown_event_name_with_prop_filter: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["event_name"],
    metrics: ["visitors", "events"],
    filters: [{ dimension: `prop:${MARK}plan`, op: "is", values: [v("pro")] }],
  },
  breakdown_prop: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: [`prop:${MARK}plan` as Dimension],
    metrics: ["visitors", "events", "pageviews", "bounce_rate"],
  },
  filters_is_and_is_not_session: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors", "visits"],
    filters: [
      { dimension: "country", op: "is", values: [v("DE"), v("FR")] },
      { dimension: "device", op: "is_not", values: [v("mobile")] },
    ],
  },
  filters_contains_not_contains_session: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors"],
    filters: [
      { dimension: "referrer", op: "contains", values: [v("google"), v("bing")] },
      { dimension: "utm_campaign", op: "not_contains", values: [v("spam")] },
    ],
  },
  filters_matches_session_and_page: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors", "pageviews", "time_on_page"],
    filters: [
      { dimension: "browser", op: "matches", values: [`^${MARK}(Chrome|Edge)$`] },
      { dimension: "page", op: "matches", values: [`^/${MARK}docs/.*`] },
    ],
  },
  filters_negative_page: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors", "pageviews", "bounce_rate"],
    filters: [
      { dimension: "page", op: "is_not", values: [v("/pricing")] },
      { dimension: "page", op: "not_contains", values: [v("admin")] },
    ],
  },
  filters_event_name_positive_and_negative: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors", "events"],
    filters: [
      { dimension: "event_name", op: "is", values: [v("signup")] },
      { dimension: "event_name", op: "is_not", values: [v("refund")] },
    ],
  },
  filters_prop_each_op: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors", "events"],
    filters: [
      { dimension: `prop:${MARK}plan`, op: "is", values: [v("pro")] },
      { dimension: `prop:${MARK}plan`, op: "is_not", values: [v("free")] },
      { dimension: `prop:${MARK}src`, op: "contains", values: [v("form")] },
      { dimension: `prop:${MARK}src`, op: "not_contains", values: [v("api")] },
      { dimension: `prop:${MARK}ab`, op: "matches", values: [`^${MARK}v[0-9]+$`] },
    ],
  },
  goal_conversions_filtered: {
    kind: "aggregate",
    property: PROPERTY,
    metrics: ["visitors", "conversions", "conversion_rate"],
    goal: v("purchase"),
    filters: [{ dimension: "channel", op: "is", values: [v("search")] }],
  },
  goal_conversions_by_source: {
    kind: "breakdown",
    property: PROPERTY,
    dimensions: ["source"],
    metrics: ["visitors", "conversions", "conversion_rate"],
    goal: v("purchase"),
    order: { by: "conversions", direction: "desc" },
  },
  goals_every_metric_filtered: {
    kind: "goals",
    property: PROPERTY,
    metrics: ["visitors", "events", "conversions", "conversion_rate"],
    goals: [
      { kind: "event", name: v("Signed up"), match: v("signup") },
      { kind: "page", name: v("Pricing"), match: `/${MARK}pricing'OR'1'='1` },
      { kind: "page", name: v("Blog"), match: `/${MARK}blog/*/c.(x)+/**` },
    ],
    filters: [
      { dimension: "country", op: "is", values: [v("DE")] },
      { dimension: "page", op: "contains", values: [v("docs")] },
      { dimension: "event_name", op: "is_not", values: [v("refund")] },
    ],
  },
  goals_by_name_paged: {
    kind: "goals",
    property: PROPERTY,
    metrics: ["visitors", "events"],
    goals: [
      { kind: "event", name: v("A"), match: v("a") },
      { kind: "page", name: v("B"), match: `/${MARK}b/**` },
    ],
    order: { by: "dimension", direction: "asc" },
    limit: 1,
    offset: 1,
  },
};
