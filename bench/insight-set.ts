// The insights the budgets are about (DESIGN.md §8, issues #22 and #23): one of each kind over 90
// days, run through the same runners the API calls. Shared by the insights bench (DuckDB) and the
// ClickHouse bench (both engines side by side), so the two measure the same specs.
import type {
  FunnelSpecInput,
  LifecycleSpecInput,
  PathsSpecInput,
  RetentionSpecInput,
  StickinessSpecInput,
  TrendsSpecInput,
} from "@lookout/schema";
import { type EventReader, runFunnel, runLifecycle, runPaths, runRetention, runStickiness, runTrends } from "@lookout/storage";

/** Two series (unique visitors with a pageview, signups), broken down by country (top 10 + Other), daily. */
const TRENDS: TrendsSpecInput = {
  kind: "trends",
  period: "last_90_days",
  interval: "day",
  series: [
    { event: "pageview", math: "unique_visitors" },
    { event: "signup", math: "total" },
  ],
  breakdown: "country",
};

/** The breakdown trend compared with the previous period (not a budget kind): both periods from the breakdown rollups. */
const TRENDS_COMPARED: TrendsSpecInput = { ...TRENDS, period: "last_30_days", comparison: "previous_period" };

/** One series, unique visitors with a pageview, daily: the plain trend the activity rollups answer (not a budget kind). */
const TRENDS_PLAIN: TrendsSpecInput = {
  kind: "trends",
  period: "last_90_days",
  interval: "day",
  series: [{ event: "pageview", math: "unique_visitors" }],
};

/** A 4-step funnel with a page filter on its first step, 14-day window. */
const FUNNEL: FunnelSpecInput = {
  kind: "funnel",
  period: "last_90_days",
  steps: [{ event: "pageview", filters: "page~pricing" }, { event: "pageview" }, { event: "signup" }, { event: "purchase" }],
  window: { value: 14, unit: "day" },
};

/** 8-period weekly retention over the 90 days (14 cohorts), pageview to pageview, first time. */
const RETENTION: RetentionSpecInput = {
  kind: "retention",
  period: "last_90_days",
  start_event: { event: "pageview" },
  return_event: { event: "pageview" },
  period_unit: "week",
  periods: 8,
};

/** Daily stickiness of pageviews over the 90 days. */
const STICKINESS: StickinessSpecInput = {
  kind: "stickiness",
  period: "last_90_days",
  interval: "day",
  event: { event: "pageview" },
};

/** Daily lifecycle of pageviews over the 90 days. */
const LIFECYCLE: LifecycleSpecInput = {
  kind: "lifecycle",
  period: "last_90_days",
  interval: "day",
  event: { event: "pageview" },
};

/** 5-step page paths with no anchor: every visit of the 90 days is read and walked. */
const PATHS: PathsSpecInput = { kind: "paths", period: "last_90_days", type: "pageview", steps: 5 };

/** `dayRollups: false` answers from events alone, as a store without rollups would. */
export type InsightCtx = { timezone: string; now: Date; dayRollups?: boolean };

/** One run of an insight: its answer (to compare engines) and a size to report. */
export type InsightRun = () => Promise<{ answer: unknown; rows: number }>;

/** A runner's call as an InsightRun: its results are the answer, `rows` their size. */
const run =
  <R>(call: () => Promise<{ results: R }>, rows: (results: R) => number): InsightRun =>
  async () => {
    const { results } = await call();
    return { answer: results, rows: rows(results) };
  };

/** Each kind's run on `store`, by the name the benches report it under. */
export function insightRuns(store: EventReader, property: string, ctx: InsightCtx): [string, InsightRun][] {
  return [
    [
      "trends_breakdown",
      run(
        () => runTrends(store, property, TRENDS, ctx),
        (r) => r.length,
      ),
    ],
    [
      "trends_plain",
      run(
        () => runTrends(store, property, TRENDS_PLAIN, ctx),
        (r) => r.length,
      ),
    ],
    [
      "trends_compared",
      run(
        () => runTrends(store, property, TRENDS_COMPARED, ctx),
        (r) => r.length,
      ),
    ],
    [
      "funnel_4_steps",
      run(
        () => runFunnel(store, property, FUNNEL, ctx),
        (r) => r.steps.length,
      ),
    ],
    [
      "retention_8_periods",
      run(
        () => runRetention(store, property, RETENTION, ctx),
        (r) => r.cohorts.length,
      ),
    ],
    [
      "stickiness",
      run(
        () => runStickiness(store, property, STICKINESS, ctx),
        (r) => r.length,
      ),
    ],
    [
      "lifecycle",
      run(
        () => runLifecycle(store, property, LIFECYCLE, ctx),
        (r) => r.length,
      ),
    ],
    [
      "paths_5_steps",
      run(
        () => runPaths(store, property, PATHS, ctx),
        (r) => r.edges.length,
      ),
    ],
  ];
}
