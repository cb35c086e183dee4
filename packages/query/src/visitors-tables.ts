// The per-visitor tables (issue #21, performance): what lets a visitor's page and the visitors list
// skip the events table's full scan. The events table is ordered by (property, time), so one
// visitor's history is spread over every block of the property; these two tables are keyed by
// visitor instead, and hold every figure the page and the list show.
//
//   visitor_visits   one row per visit per append (a partial): the visit's first/last time, its
//                    counts, its first and last event's attributes, its first non-engagement
//                    event (the source), the distinct facet values, and the few event-level lists
//                    the page's panels count (shown events' times, pageview paths, custom events).
//                    Several partial rows of one visit (a visit that spans appends) fold on read
//                    (GROUP BY session_id, visitors-digest.ts). DuckDB: inserted per appended batch
//                    in the append's transaction; ClickHouse: a materialized view over each
//                    inserted block, ORDER BY (property, client_id, session_id) so that a visitor's
//                    reads touch only its granules.
//   visitor_summary  one row per visitor: first/last seen, events, visits, pageviews, custom events,
//                    revenue, and the latest event's location and device: what the list sorts and
//                    searches. DuckDB: upserted per batch on its primary key, with the visitor's
//                    visit keys so that visits count exactly once; ClickHouse: an
//                    AggregatingMergeTree of aggregate states fed by a materialized view, merged on read.
//
// This module prints the SQL that fills them (the same column list for both dialects, spelled by
// the dialect table below); storage creates the tables from VISIT_TABLE_COLUMNS / SUMMARY_COLUMNS.
import type { SqlDialect } from "./dialects.js";
import { NON_CUSTOM_EVENT_NAMES } from "./tables.js";

/** Bump when the tables change shape or meaning: stores rebuild them from `events`. */
export const VISITOR_TABLES_VERSION = "3"; // 2: summary upserted by primary key, 3: visits rewritten in visitor order

export type VisitorTableColumnType = "string" | "timestamp" | "count" | "float64" | "strings" | "timestamps" | "floats";

export const CUSTOM_CONDITION = `name NOT IN (${NON_CUSTOM_EVENT_NAMES.map((n) => `'${n}'`).join(", ")})`;
const CURRENCY = "CASE WHEN revenue_currency <> '' THEN revenue_currency END";
const PAGEVIEW = "name = 'pageview'";
const SHOWN = "name <> 'engagement'";

/** The visit attributes kept from its first event (the history's visit line). */
export const VISIT_FIRST = ["referrer_source", "channel", "device", "browser", "os", "country", "region", "city"] as const;
/** The visitor attributes kept from its latest event (the list, "also seen as", the page's location). */
export const VISIT_LAST = ["country", "region", "city", "device", "browser", "os"] as const;
/** The first source's columns (the visitor's first non-engagement event). */
export const VISIT_SOURCE = [
  "referrer",
  "referrer_source",
  "channel",
  "path",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
] as const;
/** The facets whose distinct values each visit keeps (the page's "seen with" lists). */
export const VISIT_FACETS = ["device", "browser", "os", "screen", "language", "country"] as const;

interface FillFns {
  argMin(e: string, by: string): string;
  argMax(e: string, by: string): string;
  /** The argument at the least `by` among rows where `cond`; '' (or the type's empty value) when none. */
  argMinIf(e: string, by: string, cond: string): string;
  minIf(e: string, cond: string): string;
  countIf(c: string): string;
  sumIf(e: string, c: string): string;
  /** Distinct non-empty values of a string column. */
  uniqList(column: string): string;
  /** The values of rows where `cond`, ordered by `order` (several such lists line up element by element). */
  listIf(e: string, cond: string, order: string, type: "VARCHAR" | "TIMESTAMP" | "DOUBLE"): string;
}

const FILL: Record<SqlDialect, FillFns> = {
  duckdb: {
    argMin: (e, by) => `arg_min(${e}, ${by})`,
    argMax: (e, by) => `arg_max(${e}, ${by})`,
    argMinIf: (e, by, c) => `coalesce(arg_min(${e}, ${by}) FILTER (WHERE ${c}), '')`,
    minIf: (e, c) => `coalesce(min(${e}) FILTER (WHERE ${c}), min(${e}))`,
    countIf: (c) => `count_if(${c})`,
    sumIf: (e, c) => `coalesce(sum(${e}) FILTER (WHERE ${c}), 0)`,
    // list_distinct after the fact: a DISTINCT aggregate costs a hash table of its own per column.
    uniqList: (c) => `coalesce(list_distinct(list(${c}) FILTER (WHERE ${c} <> '')), []::VARCHAR[])`,
    // Lists that line up (`order` given) share one ORDER BY: rows that tie on it are equal in every listed column.
    listIf: (e, c, o, t) => `coalesce(list(${e}${o ? ` ORDER BY ${o}` : ""}) FILTER (WHERE ${c}), []::${t}[])`,
  },
  clickhouse: {
    argMin: (e, by) => `argMin(${e}, ${by})`,
    argMax: (e, by) => `argMax(${e}, ${by})`,
    argMinIf: (e, by, c) => `argMinIf(${e}, ${by}, ${c})`,
    minIf: (e, c) => `minIf(${e}, ${c})`,
    countIf: (c) => `countIf(${c})`,
    sumIf: (e, c) => `sumIf(${e}, ${c})`,
    uniqList: (c) => `groupUniqArrayIf(${c}, ${c} <> '')`,
    // A block is aggregated in its rows' order: parallel groupArrays line up.
    listIf: (e, c) => `groupArrayIf(${e}, ${c})`,
  },
};

/** visitor_visits: column -> its type and its expression over `events` (grouped by property, client_id, session_id). */
function visitColumns(dialect: SqlDialect): [string, VisitorTableColumnType, string][] {
  const f = FILL[dialect];
  const byTsPath = "(ts, path)";
  const order = "ts, name, revenue, revenue_currency";
  return [
    ["start_ts", "timestamp", "min(ts)"],
    ["end_ts", "timestamp", "max(ts)"],
    ["n_all", "count", "count()"],
    ["n_pageviews", "count", f.countIf(PAGEVIEW)],
    ["n_custom", "count", f.countIf(CUSTOM_CONDITION)],
    ["n_shown", "count", f.countIf(SHOWN)],
    ["engaged", "float64", f.sumIf("engaged_ms", "name = 'engagement'")],
    ["revenue_sum", "float64", "sum(revenue)"],
    ["cur_min", "string", `coalesce(min(${CURRENCY}), '')`],
    ["cur_max", "string", `coalesce(max(${CURRENCY}), '')`],
    // Meaningful only when n_pageviews > 0 (the fold filters on it).
    ["entry_ts", "timestamp", f.minIf("ts", PAGEVIEW)],
    ["entry_path", "string", f.argMinIf("path", "ts", PAGEVIEW)],
    ...VISIT_FIRST.map((c): [string, VisitorTableColumnType, string] => [`f_${c}`, "string", f.argMin(c, "ts")]),
    ...VISIT_LAST.map((c): [string, VisitorTableColumnType, string] => [`l_${c}`, "string", f.argMax(c, "ts")]),
    // The first shown event, ties broken by path as the events path does; when n_shown > 0.
    ["src_ts", "timestamp", f.minIf("ts", SHOWN)],
    ...VISIT_SOURCE.map((c): [string, VisitorTableColumnType, string] => [`src_${c}`, "string", f.argMinIf(c, byTsPath, SHOWN)]),
    ...VISIT_FACETS.map((c): [string, VisitorTableColumnType, string] => [`fc_${c}`, "strings", f.uniqList(c)]),
    ["day_ts", "timestamps", f.listIf("ts", SHOWN, "", "TIMESTAMP")],
    ["pv_paths", "strings", f.listIf("path", PAGEVIEW, "", "VARCHAR")],
    ["c_names", "strings", f.listIf("name", CUSTOM_CONDITION, order, "VARCHAR")],
    ["c_revenue", "floats", f.listIf("revenue", CUSTOM_CONDITION, order, "DOUBLE")],
    ["c_currency", "strings", f.listIf("revenue_currency", CUSTOM_CONDITION, order, "VARCHAR")],
  ];
}

/** The key columns of the two tables (DuckDB adds `pkey`, the property's integer key, after `property`). */
export const VISIT_KEY = ["property", "client_id", "session_id"] as const;
export const SUMMARY_KEY = ["property", "client_id"] as const;

/** visitor_visits' columns after the key, with their types. */
export const VISIT_TABLE_COLUMNS: readonly [string, VisitorTableColumnType][] = visitColumns("duckdb").map(([n, t]) => [n, t]);

/** visitor_summary's columns after the key: [name, type, ClickHouse aggregate state]. */
export const SUMMARY_COLUMNS: readonly [string, VisitorTableColumnType, string][] = [
  ["first_ts", "timestamp", "min"],
  ["last_ts", "timestamp", "max"],
  ["n_all", "count", "count"],
  ["n_visits", "count", "uniqExact"],
  ["n_pageviews", "count", "sum"],
  ["n_custom", "count", "sum"],
  ["revenue_sum", "float64", "sum"],
  ...VISIT_LAST.map((c): [string, VisitorTableColumnType, string] => [`l_${c}`, "string", "argMax"]),
];

const pkeyCols = (dialect: SqlDialect) => (dialect === "duckdb" ? ["pkey"] : []);

/** The column list of visitor_visits in table order. */
export function visitTableColumns(dialect: SqlDialect): string[] {
  return ["property", ...pkeyCols(dialect), "client_id", "session_id", ...VISIT_TABLE_COLUMNS.map(([n]) => n)];
}

/** The column list of visitor_summary in table order. */
export function summaryTableColumns(dialect: SqlDialect): string[] {
  return ["property", ...pkeyCols(dialect), "client_id", ...SUMMARY_COLUMNS.map(([n]) => n)];
}

/**
 * The visit partials of the events `source` holds (a table or a FROM item with the events'
 * columns, already narrowed to what is new), in visitTableColumns() order.
 */
export function visitFillSql(dialect: SqlDialect, source: string): string {
  const pkey = dialect === "duckdb" ? ["any_value(pkey) AS pkey"] : [];
  const cols = visitColumns(dialect).map(([n, , e]) => `${e} AS ${n}`);
  return `SELECT property, ${[...pkey, "client_id", "session_id", ...cols].join(", ")} FROM ${source} GROUP BY property, client_id, session_id`;
}

/**
 * DuckDB: the summary rows of the events `source` holds, merged into the stored ones by primary key
 * (an index lookup per visitor, no scan): sums add, first/last seen widen, the latest event's
 * attributes follow the later last_ts, and `skeys` (the 64-bit keys of the visitor's visits)
 * unite, so that n_visits counts a visit that spans appends once.
 */
export function summaryUpsertSql(source: string): string {
  const cols = [
    "min(ts) AS first_ts",
    "max(ts) AS last_ts",
    "count() AS n_all",
    "len(list_distinct(list(skey))) AS n_visits",
    `count_if(${PAGEVIEW}) AS n_pageviews`,
    `count_if(${CUSTOM_CONDITION}) AS n_custom`,
    "sum(revenue) AS revenue_sum",
    ...VISIT_LAST.map((c) => `arg_max(${c}, ts) AS l_${c}`),
    "list_distinct(list(skey)) AS skeys",
  ];
  const t = "visitor_summary";
  const set = [
    `first_ts = least(${t}.first_ts, excluded.first_ts)`,
    `last_ts = greatest(${t}.last_ts, excluded.last_ts)`,
    ...["n_all", "n_pageviews", "n_custom", "revenue_sum"].map((c) => `${c} = ${t}.${c} + excluded.${c}`),
    ...VISIT_LAST.map((c) => `l_${c} = CASE WHEN excluded.last_ts >= ${t}.last_ts THEN excluded.l_${c} ELSE ${t}.l_${c} END`),
    `skeys = list_distinct(list_concat(${t}.skeys, excluded.skeys))`,
    `n_visits = len(list_distinct(list_concat(${t}.skeys, excluded.skeys)))`,
  ];
  return (
    `INSERT INTO ${t} (${[...summaryTableColumns("duckdb"), "skeys"].join(", ")}) ` +
    `SELECT property, pkey, client_id, ${cols.join(", ")} ` +
    `FROM ${source} GROUP BY property, pkey, client_id ON CONFLICT (pkey, client_id) DO UPDATE SET ${set.join(", ")}`
  );
}

/** ClickHouse: the summary's aggregate states of the events `source` holds (the materialized view's SELECT). */
export function summaryStatesSql(source: string): string {
  const expr: Record<string, string> = {
    first_ts: "minState(ts)",
    last_ts: "maxState(ts)",
    n_all: "countState()",
    n_visits: "uniqExactState(session_id)",
    n_pageviews: `sumState(toUInt64(${PAGEVIEW}))`,
    n_custom: `sumState(toUInt64(${CUSTOM_CONDITION}))`,
    revenue_sum: "sumState(revenue)",
    ...Object.fromEntries(VISIT_LAST.map((c) => [`l_${c}`, `argMaxState(${c}, ts)`])),
  };
  const cols = SUMMARY_COLUMNS.map(([n]) => `${expr[n]} AS ${n}`);
  return `SELECT property, client_id, ${cols.join(", ")} FROM ${source} GROUP BY property, client_id`;
}

/** ClickHouse: a summary column's AggregateFunction type (the state of its aggregate over the events' types). */
export function summaryStateType(name: string): string {
  const [, type, fn] = SUMMARY_COLUMNS.find(([n]) => n === name) ?? [];
  if (!type || !fn) throw new Error(`not a summary column: ${name}`);
  const ts = "DateTime('UTC')";
  if (fn === "count") return "AggregateFunction(count)";
  if (fn === "uniqExact") return "AggregateFunction(uniqExact, String)";
  if (fn === "argMax") return `AggregateFunction(argMax, String, ${ts})`;
  if (fn === "min" || fn === "max") return `AggregateFunction(${fn}, ${ts})`;
  return `AggregateFunction(sum, ${type === "float64" ? "Float64" : "UInt64"})`;
}
