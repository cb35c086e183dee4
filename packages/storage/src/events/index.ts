// The event store: the EventStore interface, its DuckDB adapter, the DDL of both dialects, the
// conformance suite every adapter runs, and runStats (QuerySpec -> compiled SQL -> shaped results).

export { countBillableEvents, isBillableEvent } from "./billing.js";
export { type ClickHouseIngestOptions, ingestBacklog, openClickHouseIngestStore } from "./clickhouse-ingest.js";
export {
  CLICKHOUSE_CANNOT,
  type ClickHouseEventStore,
  type ClickHouseOptions,
  openClickHouseEventStore,
  parseClickHouseUrl,
} from "./clickhouse-store.js";
export * from "./ddl.js";
export type { DuckDbEventStore, DuckDbOptions } from "./duckdb-options.js";
export { openDuckDbEventStore, ROLLUP_VERSION as DUCKDB_ROLLUP_VERSION } from "./duckdb-store.js";
export { openDuckDbEventStoreOnThread } from "./duckdb-thread-store.js";
export * from "./event-store.js";
export * from "./funnel.js";
export { idKey } from "./hash.js";
export * from "./insights.js";
export * from "./lifecycle.js";
export * from "./paths.js";
export * from "./retention.js";
export * from "./stats.js";
export * from "./stickiness.js";
export * from "./trends.js";
export * from "./vocabulary.js";
