// ClickHouse's visit tables (issue #22): the aggregate states that `sessions`, `session_pages` and
// `session_events` are read from on ClickHouse, instead of a GROUP BY over the raw events in every
// query (measured ~10 s for the dashboard set at 1M events). This module owns their columns, the
// SELECT that turns inserted events into states (the materialized views' query and the backfill's,
// storage's clickhouse-visit-tables.ts creates the tables from the same list), the reads that
// merge them back into the derived tables' rows, and the settled rows those reads take instead for
// the days that are over (below; storage's clickhouse-settle.ts writes them).
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
import type { SettledVisits } from "./compiled.js";
import type { Dialect, EventBounds } from "./dialects.js";
import { tableRead } from "./relation.js";
import { markHistory, markShared } from "./clickhouse-live-shared.js";
import { PREV_COLUMNS, withPrevs } from "./clickhouse-prevs.js";
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

// ---------------------------------------------------------------------------------------------
// Settled visits. Merging every visit's states is what a dashboard panel spends its time on (at
// 10M events 2.4M visits of aggregate states per panel: 28 s for the set), so once a UTC day is
// over (SETTLE_MS past), its visits are merged once, by the store's settle step, into plain rows
// (`<table>_done`: one row per visit, per visit and path, per visit and event name, keyed by the
// visit's start day) with the 64-bit keys computed. A read then takes the settled visits from those
// rows and merges states only for the visits that start on or after the first unsettled day (today
// on a running server), and the two parts are one UNION ALL.
//
// Which rows count: each settle step writes its days' rows under a batch id per day, then a mark
// per day (`visits_done_marks`: day, batch, `at` = when the step began reading). A day's rows are
// those of the batch of its latest mark. An insert of events into a settled day marks with batch 0
// ("not settled"), after the insert, the day, every settleable day after (their prev_*, below) and
// the day before when one of the insert's visits has states there (it started there: a day is
// settled once none of its visits has been active for SETTLE_MS, and a backlog delivered later can
// still add to one; storage's clickhouse-marks.ts), so a step that began
// before that insert loses to it, and the days are read from states again until later steps
// settle them anew. Two servers settling the same day at once both write; the later mark wins and
// the other batch is never read (and is deleted some minutes later). The first unsettled day is the
// earliest day whose latest mark is 0, else the day after the last marked one.
//
// Exact: a visit is in exactly one part. A visit with states on the day before the first unsettled
// day started in a settled day (visits break after 30 idle minutes, so one that runs into a day
// has events on the day before it) and is left to the settled rows; the live part merges the
// states from the first unsettled day on, less those visits (as the derivation from events, a
// visit is cut a day past its range's reads).
// ---------------------------------------------------------------------------------------------

/** The settled rows' tables. */
export type VisitDoneTable = "visits_done" | "visit_pages_done" | "visit_events_done";
export const DONE_TABLES: Record<VisitStateTable, VisitDoneTable> = {
  visits: "visits_done",
  visit_pages: "visit_pages_done",
  visit_events: "visit_events_done",
};
export const DONE_MARKS_TABLE = "visits_done_marks";

/** How long after a UTC day ends, and after its visits' last events, its visits are settled (events still arriving). */
export const SETTLE_MS = 35 * 60_000;

const UTC_TS = "DateTime('UTC')";
/** One column of a read: its name, its ClickHouse type, and its expression over merged states. */
export type DoneColumn = readonly [name: string, type: string, expr: string];

const cast = (type: string, e: string) =>
  type === "String" ? e : type === UTC_TS ? `toDateTime(${e}, 'UTC')` : `to${type}(${e})`;

function sessionColumns(): DoneColumn[] {
  const m = (name: string) => merge("visits", name);
  const pv = m("s_pageviews");
  const custom = m("s_events");
  return [
    ["skey", "UInt64", "cityHash64(session_id)"],
    ["vkey", "UInt64", `cityHash64(${m("s_visitor")})`],
    ["client_id", "String", "any(client_id)"],
    ["start_ts", UTC_TS, m("s_start")],
    ["end_ts", UTC_TS, m("s_end")],
    ["duration", "Float64", `(${m("s_end_tms")} - ${m("s_start_tms")}) / 1000`],
    ["pageviews", "UInt64", pv],
    ["events", "UInt64", custom],
    ["bounce", "UInt8", `(${pv} = 1 AND ${custom} = 0)`],
    ["engaged_ms", "Float64", m("s_engaged_ms")],
    ["entry_page", "String", `if(${pv} > 0, ${m("s_entry")}, '')`],
    ["exit_page", "String", `if(${pv} > 0, ${m("s_exit")}, '')`],
    ...SESSION_ATTRIBUTE_COLUMNS.map((c): DoneColumn => [c, "String", m(`s_${c}`)]),
  ];
}

/** The columns of each table's settled rows, after (property, day, batch); the live reads yield the same. */
export function doneColumns(table: VisitStateTable): DoneColumn[] {
  if (table === "visits") return sessionColumns();
  const m = (name: string) => merge(table, name);
  const common: DoneColumn[] = [
    ["skey", "UInt64", "cityHash64(session_id)"],
    ["vkey", "UInt64", `cityHash64(${m("s_visitor")})`],
    ["client_id", "String", "any(client_id)"],
    ["start_ts", UTC_TS, "start_ts"],
  ];
  return table === "visit_pages"
    ? [
        ...common,
        ["path", "String", "path"],
        ["pageviews", "UInt64", m("s_pageviews")],
        ["engaged_ms", "Float64", m("s_engaged_ms")],
      ]
    : [...common, ["name", "String", "name"], ["events", "UInt64", m("s_events")], ["revenue", "Float64", m("s_revenue")]];
}

/**
 * The settle step's rows of the visits starting on days [first, last] (UTC day numbers): merged
 * from states read over `within`, with every prev_* column, against the settled rows of the
 * days before `firstDay` (`winners`: each such day's winning batch) of the same visitors.
 */
export function settledRowsSql(
  table: VisitStateTable,
  within: readonly string[],
  starts: string,
  firstDay: string,
  winners: readonly string[],
): string {
  const fresh = liveRowsSql(table, within, starts);
  // Plain numbers (below 2^52): 18.16 analyses a long list of function calls slowly (0.5 s for a thousand).
  const batches = `(${winners.length > 0 ? winners.map((b) => BigInt(b).toString()).join(", ") : "0"})`;
  const history = `${DONE_TABLES[table]} WHERE day < ${firstDay} AND batch IN ${batches} AND vkey IN (SELECT vkey FROM ${fresh})`;
  return withPrevs(
    table,
    doneColumns(table),
    fresh,
    history,
    PREV_COLUMNS[table].map(([p]) => p),
  );
}

/**
 * What a read needs of the marks, compiled in (CompileContext.settledVisits) or bound by the store
 * when it runs the statement (storage's clickhouse-store.ts; clickhouse-marks.ts settledState reads
 * them): the first day whose visits are
 * read from states, and the winning batch of each settled day before it. As constants: 18.16
 * executes a scalar or IN subquery again at every level of analysis of the statement around it,
 * and the marks' subqueries, run that way, cost a dashboard panel at 10M events 0.9 s against 0.3.
 */
export const SETTLED_PARAMS = { firstLive: "lookout_first_live", batches: "lookout_settled" } as const;
/** The first day whose visits are read from states (a Date). */
export const FIRST_LIVE_DAY = `toDate({${SETTLED_PARAMS.firstLive}:String})`;
/**
 * The batches read: each settled day's latest, before the first live day (a list of UInt64). A
 * batch id is its step's random base plus the day number, so it names one day's rows and the read
 * is one UInt64 IN (0 marks a day not settled, and no row has it).
 */
export const WINNERS = `({${SETTLED_PARAMS.batches}:UInt64s})`;

const DAY_MS = 86_400_000;

/** The UTC day number a batch id names (a step's random base, a multiple of 65536, plus the day). */
export const batchDay = (batch: string): number => Number(BigInt(batch) % 65536n);

/**
 * The printed list of `settled`'s batches of UTC days [firstDay, endDay), for a read that knows its
 * batches when compiled: a read whose rows end at a UTC midnight inside a local day must not take
 * the rows of that day's batch (rows may be there, not yet marked filled), and the list of a range's
 * days is shorter to analyse than every settled day's (18.16 analyses a long list slowly).
 */
export function settledBatchList(settled: SettledVisits, firstDay: number, endDay: number): string {
  const inDays = settled.batches.filter((b) => {
    const day = batchDay(b);
    return day >= firstDay && day < endDay;
  });
  // Plain numbers (below 2^52); 0 names no rows and keeps the list from being empty.
  return `(${[...inDays.map((b) => BigInt(b).toString()), "0"].join(", ")})`;
}

/** The values of SETTLED_PARAMS for `settled`, those `sql` names (CompileContext.settledVisits binds them at compile time). */
export function settledParamsOf(sql: string, settled: SettledVisits): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (sql.includes(`{${SETTLED_PARAMS.firstLive}:`))
    out[SETTLED_PARAMS.firstLive] = new Date(settled.firstLiveDay * DAY_MS).toISOString().slice(0, 10);
  if (sql.includes(`{${SETTLED_PARAMS.batches}:`))
    out[SETTLED_PARAMS.batches] = settled.batches.length > 0 ? settled.batches : ["0"];
  return out;
}

/** What a live read always yields: the visit's keys and start, its path or name, and pageviews (a page row's HAVING). */
const ALWAYS_LIVE = ["skey", "vkey", "start_ts", "path", "name", "pageviews"];

/**
 * The live part of a table: its states merged per visit (and path or name), over the state rows
 * that `where` picks (after the property predicate when reading for a query), keeping the visits
 * whose start passes `startWhere` (over `start_ts`). `keep`: the columns to yield (all when
 * absent; the visit's keys, start and path or name always): 18.16 merges every state a subquery
 * names, used or not (a third of a live part's merge at 2M events).
 */
export function liveRowsSql(
  table: VisitStateTable,
  where: readonly string[],
  startWhere: string,
  property?: string,
  keep?: readonly string[],
): string {
  const from = (t: VisitStateTable) => `${t} WHERE ${[...(property ? [property] : []), ...where].join(" AND ")}`;
  const cols = (c: DoneColumn[]) => c.map(([n, type, e]) => `${cast(type, e)} AS ${n}`);
  const kept = (c: DoneColumn[]) => (keep === undefined ? c : c.filter(([n]) => keep.includes(n) || ALWAYS_LIVE.includes(n)));
  if (table === "visits") {
    return `(SELECT property, ${cols(kept(sessionColumns())).join(", ")} FROM ${from("visits")} GROUP BY property, skey HAVING ${startWhere})`;
  }
  const key = table === "visit_pages" ? "path" : "name";
  const own = kept(doneColumns(table)).filter(([n]) => n !== "start_ts");
  const having = table === "visit_pages" ? " HAVING pageviews > 0" : "";
  const states = `(SELECT property, ${cols(own).join(", ")} FROM ${from(table)} GROUP BY property, skey, ${key}${having})`;
  // By property too: the settle step reads every property's visits, and visit ids are the sender's.
  const starts = `(SELECT property, cityHash64(session_id) AS skey, ${cast(UTC_TS, merge("visits", "s_start"))} AS start_ts FROM ${from("visits")} GROUP BY property, skey HAVING ${startWhere})`;
  const names = kept(doneColumns(table)).map(([n]) => n);
  return `(SELECT property, ${names.join(", ")} FROM ${states} ANY INNER JOIN ${starts} USING (property, skey))`;
}

/**
 * A table's rows of a query's bounds: the settled rows of its days, and the live part after them,
 * with the prev_* columns the query reads. `reads`: the text that reads the rows (its select list
 * and conditions; empty when unknown): only the columns it names are carried, so the live visits'
 * arrays (withPrevs) hold what the query needs, not all thirty columns (at 10M events with two
 * live days, a panel's live part took most of its 0.6 s).
 */
function readRows(d: Dialect, table: VisitStateTable, b: EventBounds, reads: readonly string[]): string {
  // The columns the query mentions (all when it does not say), and always the visit's keys and start.
  const mentions = (n: string) => reads.some((t) => new RegExp(`\\b${n}\\b`).test(t));
  const prevSpec = PREV_COLUMNS[table].filter(([p]) => mentions(p));
  const prevs = prevSpec.map(([p]) => p);
  const always = new Set(["skey", "vkey", "start_ts", ...prevSpec.flatMap(([, v]) => (v ? [v] : []))]);
  const keep = doneColumns(table)
    .map(([n]) => n)
    .filter((n) => reads.length === 0 || always.has(n) || mentions(n));
  const names = [...keep, ...prevs];
  const scope = { d, property: b.property, bounds: () => b };
  const from = `day >= toDate(${b.from})`;
  const doneFrom = b.startsFrom === undefined ? from : `day >= toDate(${b.startsFrom})`;
  const done = tableRead(scope, DONE_TABLES[table], [doneFrom, `day <= toDate(${b.to})`, `batch IN ${WINNERS}`]);
  // Known settled visits (CompileContext.settledVisits): a part no visit between the bounds can be
  // in is left out. Its reads cost a dashboard panel at 10M events about 0.12 s even when empty
  // (the settled rows' scan for the live visitors' history, the states of the last settled day).
  const firstLive = b.settled ? b.settled.firstLiveDay * DAY_MS : undefined;
  const noLive = firstLive !== undefined && b.toMs !== undefined && b.toMs <= firstLive;
  const startsMs = b.startsFromMs ?? b.fromMs;
  const noDone = firstLive !== undefined && startsMs !== undefined && startsMs >= firstLive;
  // The live visits' earlier visits in the settled rows, from where visitors are counted.
  const historyFromMs = b.historyFromMs ?? b.fromMs;
  const noHistory = firstLive !== undefined && historyFromMs !== undefined && historyFromMs >= firstLive;
  const doneRows = `SELECT property, ${names.join(", ")} FROM ${done}`;
  if (noLive) return `(${doneRows})`;
  // The states from the first live day on, less the visits with states on the day before (they
  // started in a settled day: above): reading that day's keys, not merging its states, halves a
  // live part's merge (the day before is a whole day, the first live day at most one).
  const liveWhere = [from, `day <= toDate(${b.to})`, `day >= ${FIRST_LIVE_DAY}`];
  const earlier = `SELECT cityHash64(session_id) FROM visits WHERE ${[d.propertyIs(b.property), from, `day <= toDate(${b.to})`, `day = ${FIRST_LIVE_DAY} - 1`].join(" AND ")}`;
  const liveOf = (cols: readonly string[]) =>
    liveRowsSql(table, liveWhere, `skey NOT IN (${earlier})`, d.propertyIs(b.property), cols);
  const historyWhere = [
    b.historyFrom ? `day >= toDate(${b.historyFrom})` : from,
    `day < ${FIRST_LIVE_DAY}`,
    `batch IN ${WINNERS}`,
  ];
  // Every settled visit starts before the history's bounds when noHistory: none is an earlier visit that counts.
  const none = tableRead(scope, DONE_TABLES[table], ["0"]);
  let live: string;
  if (b.settled?.sharedLive === true) {
    // Shared (clickhouse-live-shared.ts): the live visits with every column, the same text for
    // every read of these bounds, and their visitors' history with what every prev_* orders by;
    // each read orders them for its own prev_* (one GROUP BY over some 10^4 rows at 10M events),
    // carrying only the columns it reads (18.16 reads every column a UNION ALL's sides name: a
    // fifth of a panel's live read at 10M events): all 21 of the visits' prev_* in the shared part
    // took 0.85 s of its 1 s.
    const fresh = markShared(liveOf(doneColumns(table).map(([n]) => n)));
    if (prevs.length === 0) live = `(SELECT property, ${keep.join(", ")} FROM ${fresh})`;
    else {
      const ordered = ["skey", "vkey", "start_ts", ...PREV_COLUMNS[table].flatMap(([, v]) => (v ? [v] : []))];
      const history = noHistory
        ? none
        : markHistory(
            `(SELECT property, ${ordered.join(", ")} FROM ${tableRead(scope, DONE_TABLES[table], [...historyWhere, `vkey IN (SELECT vkey FROM ${fresh})`])})`,
          );
      live = withPrevs(table, doneColumns(table), fresh, history, prevs, keep);
    }
  } else {
    live = liveOf(keep);
    if (prevs.length > 0) {
      const history = noHistory
        ? none
        : tableRead(scope, DONE_TABLES[table], [...historyWhere, `vkey IN (SELECT vkey FROM ${liveOf([])})`]);
      live = withPrevs(table, doneColumns(table), live, history, prevs, keep);
    }
  }
  const liveRows = `SELECT property, ${names.join(", ")} FROM ${live}`;
  return noDone ? `(${liveRows})` : `(${doneRows} UNION ALL ${liveRows})`;
}

/** `sessions`: one row per visit. */
export function sessionsRead(d: Dialect, b: EventBounds, reads: readonly string[] = []): string {
  return readRows(d, "visits", b, reads);
}

/** `session_pages`: one row per visit and viewed path. */
export function sessionPagesRead(d: Dialect, b: EventBounds, reads: readonly string[] = []): string {
  return readRows(d, "visit_pages", b, reads);
}

/** `session_events`: one row per visit and custom event name. */
export function sessionEventsRead(d: Dialect, b: EventBounds, reads: readonly string[] = []): string {
  return readRows(d, "visit_events", b, reads);
}
