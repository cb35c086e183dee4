// @lookout/query: QuerySpec -> SQL text + bound parameters, per dialect (DuckDB, ClickHouse 18.16).
// Pure: no I/O, no clock (the caller passes "now"), no randomness.
export { bucketLabels, formatBucket, MAX_BUCKETS } from "./buckets.js";
export { DIMENSION_LEVELS, METRIC_SQL } from "./catalog.js";
export { type CompileContext, type CompiledQuery, type CompiledStats, compileQuery } from "./compile.js";
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
export * from "./tables.js";
export * from "./tz.js";
