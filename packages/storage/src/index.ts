// @lookout/storage: the MetaStore (accounts, properties, tokens… on PGlite or PostgreSQL) and the
// EventStore (events on DuckDB or ClickHouse), each behind one interface with one conformance suite.

export * from "./events/index.js";
export * from "./jobs/index.js";
export * from "./live/index.js";
export * from "./meta/index.js";
export * from "./shared-state/index.js";
