// The relation printer: the one function that prints a table read, `<table> WHERE <property
// predicate> AND ...`. Every table the compilers read (events, the visit rollups, the day rollups,
// and in ClickHouse the visit states under a derived table) reaches SQL text through tableRead, so no
// compiler can read a table without the property predicate: callers pass only the conditions that
// come after it. sql-checks.ts checks the printed text again, as a second line.

import type { VisitDoneTable, VisitStateTable } from "./clickhouse-visits.js";
import type { Dialect, EventBounds } from "./dialects.js";
import type { DerivedTable } from "./tables.js";

/** Every table the compilers read (sql-checks.ts READ_TABLES). */
export type TableName =
  | "events"
  | "day_rollup"
  | "activity_rollup"
  | "visitor_activity"
  | "breakdown_rollup"
  | "breakdown_multi"
  | "paths_rollup"
  | "paths_pages"
  | "visit_days"
  | "visit_paths"
  | "visit_path_visits"
  | "event_slots"
  | DerivedTable
  | VisitorTable
  | VisitStateTable
  | VisitDoneTable;

/** The per-visitor tables (visitors-tables.ts): stored in both engines, read as they are. */
export type VisitorTable = "visitor_visits" | "visitor_summary";
const STORED: readonly TableName[] = [
  "events",
  "day_rollup",
  "activity_rollup",
  "visitor_activity",
  "breakdown_rollup",
  "breakdown_multi",
  "paths_rollup",
  "paths_pages",
  "visitor_visits",
  "visitor_summary",
  // ClickHouse's visit states, read under its derived tables (clickhouse-visits.ts).
  "visits",
  "visit_pages",
  "visit_events",
  // ... and their settled rows.
  "visits_done",
  "visit_pages_done",
  "visit_events_done",
  // ... and their day rows (clickhouse-day-rows.ts).
  "visit_days",
  // ... and their path rows (clickhouse-path-days.ts).
  "visit_paths",
  "visit_path_visits",
  // ... and its event slots (event-slots.ts).
  "event_slots",
];

/** What a table read needs: the dialect, the property's placeholder and the derived tables' bounds. */
export interface TableScope {
  readonly d: Dialect;
  /** The placeholder of the property (Dialect.propertyParam). */
  readonly property: string;
  /** Where the events a derived table reads may lie (binds them on first use). */
  bounds(): EventBounds;
}

/** A column of a relation: an expression, renamed when `as` is given. */
export interface Column {
  expr: string;
  as?: string;
}

export const columnName = (c: Column) => c.as ?? c.expr;
export const col = (expr: string, as?: string): Column => (as === undefined ? { expr } : { expr, as });
const printColumn = (c: Column) => (c.as === undefined ? c.expr : `${c.expr} AS ${c.as}`);

/**
 * `<table> WHERE <property predicate>[ AND <where>]`; a derived table is its dialect's FROM item,
 * given the text that reads it (`reads`: select list, conditions) when the caller knows it.
 */
export function tableRead(s: TableScope, table: TableName, where: readonly string[], reads?: readonly string[]): string {
  const item = STORED.includes(table) ? table : s.d.derived(table as DerivedTable, () => s.bounds(), reads);
  return `${item} WHERE ${[s.d.propertyIs(s.property), ...where].join(" AND ")}`;
}

/** A FROM item: `(SELECT <columns> FROM <table read>[ GROUP BY ...]) AS rN`. */
export function relation(
  s: TableScope & { alias(): string },
  columns: readonly Column[],
  table: TableName,
  where: readonly string[],
  groupBy?: string,
): string {
  const group = groupBy ? ` GROUP BY ${groupBy}` : "";
  // What the read names: its columns, conditions and grouping (a derived table carries only those).
  const reads = [...columns.map((c) => c.expr), ...where, ...(groupBy ? [groupBy] : [])];
  return `(SELECT ${columns.map(printColumn).join(", ")} FROM ${tableRead(s, table, where, reads)}${group}) AS ${s.alias()}`;
}

/** A semi-join condition: `<key> [NOT] IN (SELECT <select> FROM <table read>)`. */
export function inRelation(
  s: TableScope,
  key: string,
  negate: boolean,
  select: string,
  table: TableName,
  where: string[],
): string {
  return `${key} ${negate ? "NOT IN" : "IN"} (SELECT ${select} FROM ${tableRead(s, table, where, [select, ...where])})`;
}
