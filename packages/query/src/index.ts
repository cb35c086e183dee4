// @lookout/query: QuerySpec -> SQL text + bound parameters, per dialect (DuckDB, ClickHouse 18.16).
// Pure: no I/O, no clock (the caller passes "now"), no randomness.

export * from "./activity-rollup.js";
export {
  compileBillableCounts,
  isBillableEvent,
  MAX_BILLING_PERIODS,
  NON_BILLABLE_EVENT_NAMES,
  readBillableCounts,
} from "./billing.js";
export * from "./breakdown-rollup.js";
export { bucketLabels, bucketOf, bucketsUpToNow, formatBucket, MAX_BUCKETS } from "./buckets.js";
export { DIMENSION_LEVELS, METRIC_SQL } from "./catalog.js";
export * from "./clickhouse-day-rows.js";
export * from "./clickhouse-live-shared.js";
export * from "./clickhouse-path-days.js";
export * from "./clickhouse-prevs.js";
export * from "./clickhouse-visits.js";
export type { CompileContext, CompiledQuery, CompiledStats, SettledVisits } from "./compiled.js";
export {
  type ComparisonRange,
  comparisonRange,
  defaultInterval,
  type RangeContext,
  type ResolvedRange,
  resolveDateRange,
} from "./date-range.js";
export * from "./day-rollup.js";
export { clickhouse, DIALECTS, type Dialect, duckdb, type SqlDialect } from "./dialects.js";
export { QueryError } from "./errors.js";
export * from "./event-slots.js";
export { type GoalsPlan, type PlannedGoal, planGoal, planGoals } from "./goals-plan.js";
export * from "./insights/funnel.js";
export * from "./insights/funnel-eval.js";
export * from "./insights/funnel-outcomes.js";
export * from "./insights/funnel-shape.js";
export * from "./insights/funnel-timeline.js";
export { type CompiledInsights, INSIGHT_COMPILERS, type InsightCompiler } from "./insights/index.js";
export * from "./insights/lifecycle.js";
export * from "./insights/lifecycle-timeline.js";
export * from "./insights/timeline-days.js";
export * from "./insights/paths.js";
export { pathsRollupSpec } from "./insights/paths-rollup.js";
export * from "./insights/retention.js";
export * from "./insights/retention-timeline.js";
export * from "./insights/stickiness.js";
export * from "./insights/stickiness-timeline.js";
export * from "./insights/timeline.js";
export { type CompiledTrends, compileTrends, eventCondition, shapeTrends, type TrendsRow } from "./insights/trends.js";
export type { Compiler } from "./kinds/compiler.js";
export { COMPILERS, type CompilerRegistry, compileQuery } from "./kinds/index.js";
export * from "./paths-rollup.js";
export { type GroupKey, type PlanInput, planQuery, type QueryPlan } from "./plan.js";
export * from "./tables.js";
export * from "./tz.js";
export * from "./visitors.js";
export * from "./visitors-digest.js";
export * from "./visitors-panels.js";
export * from "./visitors-plan.js";
export * from "./visitors-tables.js";
export * from "./vocabulary.js";
