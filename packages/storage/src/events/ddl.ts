// Table DDL for both dialects from the one column list (EVENT_COLUMNS in @lookout/schema, the
// rollup columns in @lookout/query). Each dialect is a table of differences: its type names, the
// columns only it stores, and how a table is laid out. The ClickHouse text targets 18.16: no Map
// type there, so props are the Nested pair props.key / props.value (Array(String) each).

import {
  ACTIVITY_ROLLUP_COLUMNS,
  ACTIVITY_ROLLUP_TABLE,
  BREAKDOWN_MULTI_COLUMNS,
  BREAKDOWN_MULTI_TABLE,
  BREAKDOWN_ROLLUP_COLUMNS,
  BREAKDOWN_ROLLUP_TABLE,
  DAY_ROLLUP_COLUMNS,
  DAY_ROLLUP_STATE_DDL,
  DAY_ROLLUP_TABLE,
  DERIVED_TABLES,
  type DerivedColumnType,
  type DerivedTable,
  PATHS_PAGES_COLUMNS,
  PATHS_PAGES_TABLE,
  PATHS_ROLLUP_COLUMNS,
  PATHS_ROLLUP_TABLE,
  type SqlDialect,
  VISITOR_ACTIVITY_COLUMNS,
  VISITOR_ACTIVITY_TABLE,
} from "@lookout/query";
import { type ColumnType, EVENT_COLUMNS } from "@lookout/schema";

interface DialectDdl {
  types: Record<ColumnType, string>;
  /** Columns the adapter adds to `events` for its own use. */
  internalEventColumns: readonly (readonly [string, string])[];
  /** Printed after the column list of `events`. */
  eventsLayout: string;
  visitorsKey: string;
  visitorsLayout: string;
}

export const DDL_DIFFERENCES: Record<SqlDialect, DialectDdl> = {
  duckdb: {
    types: {
      string: "VARCHAR",
      timestamp: "TIMESTAMP",
      uint16: "USMALLINT",
      float64: "DOUBLE",
      map: "MAP(VARCHAR, VARCHAR)",
    },
    // 64-bit keys of (property, visitor_id) and (property, session_id): the rollups join and count
    // on them, which is several times faster than on 36-character strings. `batch` numbers each
    // append so that the rollup finds the rows it just wrote (its zone maps skip older data).
    // `pkey` is the property's key in `property_keys` (one-to-one): what queries filter on
    // (@lookout/query tables.ts). Appended last so that older files gain it by ALTER TABLE.
    internalEventColumns: [
      ["vkey", "BIGINT"],
      ["skey", "BIGINT"],
      ["batch", "BIGINT"],
      ["pkey", "BIGINT"],
    ],
    // DuckDB has no clustered index: rows stay in arrival order, i.e. ordered by ts, and the
    // min/max zone maps of each 122 880-row group let a (property, ts) predicate skip the rest.
    eventsLayout: "",
    visitorsKey: "PRIMARY KEY (property, client_id)",
    visitorsLayout: "",
  },
  clickhouse: {
    types: {
      string: "String",
      timestamp: "DateTime('UTC')",
      uint16: "UInt16",
      float64: "Float64",
      map: "Nested(key String, value String)",
    },
    // Milliseconds of `ts` (DateTime is whole seconds and 18.16 has no DateTime64): clickhouse-sql.ts.
    // `ingest_batch`: the id of the ingest-log record a row came in (clickhouse-ingest.ts): a
    // retried delivery skips the records already there, so none lands twice.
    internalEventColumns: [
      ["ts_ms", "UInt16"],
      ["ingest_batch", "String"],
    ],
    eventsLayout: "ENGINE = MergeTree() PARTITION BY toYYYYMM(ts) ORDER BY (property, ts)",
    // Not used: the ClickHouse adapter keeps one row per upsert, folded on read (clickhouse-sql.ts).
    visitorsKey: "",
    visitorsLayout: "ENGINE = MergeTree() ORDER BY (property, client_id)",
  },
};

export const VISITOR_COLUMNS = {
  property: "string",
  client_id: "string",
  email: "string",
  name: "string",
  traits: "map",
  first_seen: "timestamp",
  last_seen: "timestamp",
} as const satisfies Record<string, ColumnType>;

function table(name: string, cols: string[], after: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (\n  ${cols.join(",\n  ")}\n)${after ? ` ${after}` : ""}`;
}

export function eventsDdl(dialect: SqlDialect): string {
  const d = DDL_DIFFERENCES[dialect];
  const cols = Object.entries(EVENT_COLUMNS).map(([name, type]) => `${name} ${d.types[type]}`);
  for (const [name, type] of d.internalEventColumns) cols.push(`${name} ${type}`);
  return table("events", cols, d.eventsLayout);
}

export function visitorsDdl(dialect: SqlDialect): string {
  const d = DDL_DIFFERENCES[dialect];
  const cols = Object.entries(VISITOR_COLUMNS).map(([name, type]) => `${name} ${d.types[type]}`);
  if (d.visitorsKey) cols.push(d.visitorsKey);
  return table("visitors", cols, d.visitorsLayout);
}

const DERIVED_TYPES: Record<DerivedColumnType, string> = {
  string: "VARCHAR",
  key: "BIGINT",
  timestamp: "TIMESTAMP",
  float64: "DOUBLE",
  int32: "INTEGER",
  int64: "BIGINT",
  bool: "BOOLEAN",
  int32_list: "INTEGER[]",
};

/** The rollup tables exist in DuckDB only (ClickHouse merges its visit states per query: @lookout/query clickhouse-visits.ts). */
export function derivedDdl(name: DerivedTable): string {
  const cols = Object.entries(DERIVED_TABLES[name]).map(([c, type]) => `${c} ${DERIVED_TYPES[type]} NOT NULL`);
  // The step that last wrote the row (the last batch it rolled up; 0: a rebuild). A step rewrites
  // every row of each visit it touches, so a visit's rows all sit where its last step appended
  // them, and this column's zone maps let the next step read only what was written since
  // (duckdb-rollup.ts); start_ts narrows little, as a visit is rewritten for as long as it lasts.
  // The store's own column: queries never read it.
  cols.push("rolled BIGINT NOT NULL DEFAULT 0");
  return table(name, cols, "");
}

/** DuckDB: the day, activity and breakdown rollups and where each property's end (@lookout/query day-rollup.ts, activity-rollup.ts). */
export function dayRollupDdl(): string[] {
  const cols = (c: Record<string, DerivedColumnType>) =>
    Object.entries(c).map(([name, type]) => `${name} ${DERIVED_TYPES[type]} NOT NULL`);
  return [
    table(DAY_ROLLUP_TABLE, cols(DAY_ROLLUP_COLUMNS), ""),
    table(ACTIVITY_ROLLUP_TABLE, cols(ACTIVITY_ROLLUP_COLUMNS), ""),
    table(VISITOR_ACTIVITY_TABLE, cols(VISITOR_ACTIVITY_COLUMNS), ""),
    table(BREAKDOWN_ROLLUP_TABLE, cols(BREAKDOWN_ROLLUP_COLUMNS), ""),
    table(BREAKDOWN_MULTI_TABLE, cols(BREAKDOWN_MULTI_COLUMNS), ""),
    table(PATHS_ROLLUP_TABLE, cols(PATHS_ROLLUP_COLUMNS), ""),
    table(PATHS_PAGES_TABLE, cols(PATHS_PAGES_COLUMNS), ""),
    DAY_ROLLUP_STATE_DDL,
  ];
}

/** DuckDB: each property's integer key (dense, assigned by the store on a property's first append). */
export const PROPERTY_KEYS_DDL =
  "CREATE TABLE IF NOT EXISTS property_keys (property VARCHAR PRIMARY KEY, pkey BIGINT NOT NULL UNIQUE)";

export function allDdl(dialect: SqlDialect): string[] {
  const base = [eventsDdl(dialect), visitorsDdl(dialect)];
  if (dialect !== "duckdb") return base;
  return [...base, PROPERTY_KEYS_DDL, ...(Object.keys(DERIVED_TABLES) as DerivedTable[]).map(derivedDdl), ...dayRollupDdl()];
}
