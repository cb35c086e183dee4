// ClickHouse's visit tables (issue #22): the aggregate states that `sessions`, `session_pages` and
// `session_events` are read from on ClickHouse, instead of a GROUP BY over the raw events in every
// query (measured ~10 s for the dashboard set at 1M events). This module owns their columns, the
// SELECT that turns inserted events into states (the materialized views' query and the backfill's,
// storage's clickhouse-visit-tables.ts creates the tables from the same list) and the reads that
// merge them back into the derived tables' rows.
//
//   visits        one row per (property, UTC day, visit, client) per insert: the visit's states
//   visit_pages   ... and per path (pageviews and engagement only)
//   visit_events  ... and per custom event name
//
// AggregatingMergeTree merges rows of one key in the background, but never all of them by the time
// a query runs (a visit spans inserts, and a visit past midnight has a row per day), so every read
// merges with the -Merge combinators under GROUP BY visit (the 64-bit hash of its id that every
// ClickHouse read keys visits by: dialects.ts): exact whatever the merges did. The day
// in the key is what a read narrows by (the primary index): the days of the query's event bounds,
// a day either side of its range, as the derivation from events read them.
import type { Dialect, EventBounds } from "./dialects.js";
import { tableRead } from "./relation.js";
import { NON_CUSTOM_EVENT_NAMES, SESSION_ATTRIBUTE_COLUMNS } from "./tables.js";

/** The visit tables ClickHouse stores (relation.ts reads them like any stored table). */
export type VisitStateTable = "visits" | "visit_pages" | "visit_events";

/** One aggregate state column: `fn` over `args` (of ClickHouse types `types`), read back with `fnMerge`. */
export interface StateColumn {
  name: string;
  fn: "any" | "min" | "max" | "sum" | "count" | "argMin" | "argMax";
  args: readonly string[];
  types: readonly string[];
}

export interface VisitTableSpec {
  /** Key columns after (property, day, session_id, client_id): [name, ClickHouse type]. */
  extraKey: readonly (readonly [string, string])[];
  states: readonly StateColumn[];
  /** Which events feed the table, if not all. */
  where?: string;
}

const TS = "DateTime('UTC')";
/** Milliseconds since the epoch: events within one second keep their order (dialects.ts). */
const TMS = "toUInt64(ts) * 1000 + ts_ms";
const CUSTOM = `name NOT IN (${NON_CUSTOM_EVENT_NAMES.map((n) => `'${n}'`).join(", ")})`;
const PAGEVIEW = "name = 'pageview'";
const st = (name: string, fn: StateColumn["fn"], args: string[], types: string[]): StateColumn => ({ name, fn, args, types });
const visitor = st("s_visitor", "any", ["visitor_id"], ["String"]);

export const VISIT_TABLES: Record<VisitStateTable, VisitTableSpec> = {
  visits: {
    extraKey: [],
    states: [
      visitor,
      st("s_start", "min", ["ts"], [TS]),
      st("s_end", "max", ["ts"], [TS]),
      st("s_start_tms", "min", [TMS], ["UInt64"]),
      st("s_end_tms", "max", [TMS], ["UInt64"]),
      st("s_pageviews", "sum", [`toUInt64(${PAGEVIEW})`], ["UInt64"]),
      st("s_events", "sum", [`toUInt64(${CUSTOM})`], ["UInt64"]),
      st("s_engaged_ms", "sum", ["if(name = 'engagement', engaged_ms, 0)"], ["Float64"]),
      // The first and last pageview's path: non-pageviews sort after (entry) or before (exit)
      // every pageview, and a visit without pageviews reads '' (sessionsRead).
      st("s_entry", "argMin", ["path", `if(${PAGEVIEW}, ${TMS}, 18446744073709551615)`], ["String", "UInt64"]),
      st("s_exit", "argMax", ["path", `if(${PAGEVIEW}, ${TMS}, 0)`], ["String", "UInt64"]),
      ...SESSION_ATTRIBUTE_COLUMNS.map((c) => st(`s_${c}`, "argMin", [c, TMS], ["String", "UInt64"])),
    ],
  },
  visit_pages: {
    extraKey: [["path", "String"]],
    states: [
      visitor,
      st("s_pageviews", "sum", [`toUInt64(${PAGEVIEW})`], ["UInt64"]),
      st("s_engaged_ms", "sum", ["if(name = 'engagement', engaged_ms, 0)"], ["Float64"]),
    ],
    where: "name IN ('pageview', 'engagement')",
  },
  visit_events: {
    extraKey: [["name", "String"]],
    states: [visitor, st("s_events", "count", [], []), st("s_revenue", "sum", ["revenue"], ["Float64"])],
    where: CUSTOM,
  },
};

export const VISIT_TABLE_NAMES = Object.keys(VISIT_TABLES) as VisitStateTable[];

/** The key columns of a visit table in order: [name, type, expression over `events`]. */
export function visitTableKey(table: VisitStateTable): [string, string, string][] {
  return [
    ["property", "String", "property"],
    ["day", "Date", "toDate(ts)"],
    ["session_id", "String", "session_id"],
    ["client_id", "String", "client_id"],
    ...VISIT_TABLES[table].extraKey.map(([n, t]): [string, string, string] => [n, t, n]),
  ];
}

/** A state column's ClickHouse type. */
export const stateType = (c: StateColumn) => `AggregateFunction(${[c.fn, ...c.types].join(", ")})`;

/** The states of the events `source` holds (the materialized view's SELECT, and the backfill's). */
export function visitStatesSql(table: VisitStateTable, source: string): string {
  const spec = VISIT_TABLES[table];
  const key = visitTableKey(table);
  const cols = [
    ...key.map(([n, , e]) => (n === e ? n : `${e} AS ${n}`)),
    ...spec.states.map((c) => `${c.fn}State(${c.args.join(", ")}) AS ${c.name}`),
  ];
  const where = spec.where ? ` WHERE ${spec.where}` : "";
  return `SELECT ${cols.join(", ")} FROM ${source}${where} GROUP BY ${key.map(([n]) => n).join(", ")}`;
}

const merge = (table: VisitStateTable, name: string): string => {
  const c = VISIT_TABLES[table].states.find((s) => s.name === name);
  if (!c) throw new Error(`no state ${name} in ${table}`);
  return `${c.fn}Merge(${c.name})`;
};

/** A visit table's rows of the property within the bounds' UTC days (its primary key's prefix). */
function read(d: Dialect, table: VisitStateTable, b: EventBounds): string {
  return tableRead({ d, property: b.property, bounds: () => b }, table, [`day >= toDate(${b.from})`, `day <= toDate(${b.to})`]);
}

/** `sessions`: one row per visit, its states merged. */
export function sessionsRead(d: Dialect, b: EventBounds): string {
  const m = (name: string) => merge("visits", name);
  const pv = m("s_pageviews");
  const custom = m("s_events");
  const attrs = SESSION_ATTRIBUTE_COLUMNS.map((c) => `${m(`s_${c}`)} AS ${c}`);
  const cols = [
    "property",
    "cityHash64(session_id) AS skey",
    `cityHash64(${m("s_visitor")}) AS vkey`,
    `${m("s_start")} AS start_ts`,
    `${m("s_end")} AS end_ts`,
    `(${m("s_end_tms")} - ${m("s_start_tms")}) / 1000 AS duration`,
    `${pv} AS pageviews`,
    `${custom} AS events`,
    `(${pv} = 1 AND ${custom} = 0) AS bounce`,
    `${m("s_engaged_ms")} AS engaged_ms`,
    `if(${pv} > 0, ${m("s_entry")}, '') AS entry_page`,
    `if(${pv} > 0, ${m("s_exit")}, '') AS exit_page`,
    ...attrs,
  ];
  return `(SELECT ${cols.join(", ")} FROM ${read(d, "visits", b)} GROUP BY property, skey)`;
}

/** Each visit's start, the time its pages and events count at. */
function startsRead(d: Dialect, b: EventBounds): string {
  return `(SELECT cityHash64(session_id) AS skey, ${merge("visits", "s_start")} AS start_ts FROM ${read(d, "visits", b)} GROUP BY skey)`;
}

/** `session_pages`: one row per visit and viewed path. */
export function sessionPagesRead(d: Dialect, b: EventBounds): string {
  const m = (name: string) => merge("visit_pages", name);
  const pages =
    `(SELECT property, cityHash64(session_id) AS skey, cityHash64(${m("s_visitor")}) AS vkey, path, ${m("s_pageviews")} AS pageviews, ` +
    `${m("s_engaged_ms")} AS engaged_ms FROM ${read(d, "visit_pages", b)} GROUP BY property, skey, path HAVING pageviews > 0)`;
  return `(SELECT property, skey, vkey, start_ts, path, pageviews, engaged_ms FROM ${pages} ANY INNER JOIN ${startsRead(d, b)} USING (skey))`;
}

/** `session_events`: one row per visit and custom event name. */
export function sessionEventsRead(d: Dialect, b: EventBounds): string {
  const m = (name: string) => merge("visit_events", name);
  const evs =
    `(SELECT property, cityHash64(session_id) AS skey, cityHash64(${m("s_visitor")}) AS vkey, name, ${m("s_events")} AS events, ` +
    `${m("s_revenue")} AS revenue FROM ${read(d, "visit_events", b)} GROUP BY property, skey, name)`;
  return `(SELECT property, skey, vkey, start_ts, name, events, revenue FROM ${evs} ANY INNER JOIN ${startsRead(d, b)} USING (skey))`;
}
