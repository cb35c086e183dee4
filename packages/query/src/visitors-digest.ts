// The visitor statements over the per-visitor tables (visitors-tables.ts): the same answers as the
// statements over `events` in visitors.ts (same rows, same column names; the model tests compare
// both), read from a visitor's own rows instead of a scan of the property's events.
// visitors-plan.ts decides which of the two answers a read.
//
// Reads go through relation.ts like every other (the property predicate first); the visit
// partials of one visit fold by session_id; ClickHouse's summary states merge per client id.
import type { CompiledQuery } from "./compiled.js";
import type { SqlDialect } from "./dialects.js";
import { NamedRows } from "./named.js";
import { int } from "./params.js";
import { tableRead } from "./relation.js";
import {
  CURRENCY,
  figuresOver,
  type HistoryOptions,
  idsOf,
  Stmt,
  VISITOR_FACETS,
  type VisitorListOptions,
  type Who,
} from "./visitors.js";
import { SUMMARY_COLUMNS, VISIT_LAST } from "./visitors-tables.js";

/** What the two engines spell differently here. */
interface DigestFns {
  /** A FROM item of `read`'s rows with `keep` columns and the arrays `arrays` ([column, alias]) unnested side by side. */
  explode(read: string, keep: readonly string[], arrays: readonly (readonly [string, string])[]): string;
  /** A summary column's value from its stored form (ClickHouse: an aggregate state, merged). */
  merged(column: string, fn: string): string;
  /** After the summary read: ClickHouse merges the states of each client id. */
  summaryGroup: string;
  /** One array of (tag, value) pairs from several string arrays, each value tagged with its array's index. */
  tagged(arrays: readonly string[]): string;
  /** The tag (1) or the value (2) of such a pair. */
  part(pair: string, i: 1 | 2): string;
  /**
   * One row of several panels over rows named once (named.ts): per panel one column of its rows as
   * a list in its order; null where the engine has no list of rows to answer them in.
   */
  panelLists: ((panels: Record<string, Panel>) => string) | null;
}

const FNS: Record<SqlDialect, DigestFns> = {
  duckdb: {
    explode: (read, keep, arrays) =>
      `(SELECT ${[...keep, ...arrays.map(([c, a]) => `unnest(${c}) AS ${a}`)].join(", ")} FROM ${read})`,
    merged: (c) => c,
    summaryGroup: "",
    tagged: (arrays) =>
      `flatten([${arrays.map((a, i) => `list_transform(${a}, x -> struct_pack(f := ${int(i)}, v := x))`).join(", ")}])`,
    part: (pair, i) => `${pair}.${i === 1 ? "f" : "v"}`,
    panelLists: (panels) =>
      `SELECT ${Object.entries(panels)
        .map(([as, p]) => `(SELECT list(r ORDER BY ${p.order}) FROM (${p.sql}) AS r) AS ${as}`)
        .join(", ")} LIMIT 1`,
  },
  clickhouse: {
    explode: (read, keep, arrays) =>
      `(SELECT ${[...keep, ...arrays.map(([, a]) => a)].join(", ")} FROM (SELECT ${[...keep, ...arrays.map(([c, a]) => `${c} AS ${a}_all`)].join(", ")} FROM ${read}) ` +
      `ARRAY JOIN ${arrays.map(([, a]) => `${a}_all AS ${a}`).join(", ")})`,
    merged: (c, fn) => `${fn}Merge(${c})`,
    summaryGroup: " GROUP BY client_id",
    tagged: (arrays) => `arrayConcat(${arrays.map((a, i) => `arrayMap(x -> (${int(i)}, x), ${a})`).join(", ")})`,
    part: (pair, i) => `tupleElement(${pair}, ${i})`,
    // 18.16 names no row sets (named.ts repeats them), so one read would not be shared: each panel reads the visit rows itself.
    panelLists: null,
  },
};

/** `visitor_visits WHERE <property> [AND <span>] AND client_id IN (...)`: a visit partial starts inside the person's span. */
function visitsRead(q: Stmt, who: Who, where: readonly string[] = []): string {
  const span = "span" in who ? [`start_ts >= ${q.p.ts(who.span.from)}`, `start_ts < ${q.p.ts(who.span.to + 1000)}`] : [];
  return tableRead(q.s, "visitor_visits", [...span, q.clientIn(idsOf(who)), ...where]);
}

/**
 * The summaries as a FROM item (rows: client_id, s_first_ms, s_last_ms, s_n, s_visits,
 * s_pageviews, s_events, s_revenue, s_country, s_region, s_city, s_device, s_browser, s_os);
 * `pre` holds conditions on client_id only.
 */
function summaries(q: Stmt, pre: readonly string[]): string {
  const g = FNS[q.d.name as SqlDialect];
  const out: Record<string, string> = {
    first_ts: "s_first_ms",
    last_ts: "s_last_ms",
    n_all: "s_n",
    n_visits: "s_visits",
    n_pageviews: "s_pageviews",
    n_custom: "s_events",
    revenue_sum: "s_revenue",
    ...Object.fromEntries(VISIT_LAST.map((c) => [`l_${c}`, `s_${c}`])),
  };
  // Times also as they are stored (s_first_ts, s_last_ts): the list orders by those, since DuckDB's
  // top-N skips row groups by their zone maps only for a plain column (by epoch_ms(last_ts) it sorts
  // every visitor: 226 against 19 ms at 1.5M visitors, measured).
  const cols = SUMMARY_COLUMNS.flatMap(([c, type, fn]) => {
    const v = g.merged(c, fn);
    return type === "timestamp"
      ? [`${q.f.epochMs(v)} AS ${out[c]}`, `${v} AS ${(out[c] as string).replace(/_ms$/, "_ts")}`]
      : [`${v} AS ${out[c]}`];
  });
  return `(SELECT client_id, ${cols.join(", ")} FROM ${tableRead(q.s, "visitor_summary", pre)}${g.summaryGroup})`;
}

const fns = (q: Stmt) => FNS[q.d.name as SqlDialect];

/**
 * A panel of the visitor page over the person's visit rows: its statement, and its rows' order by
 * output columns (the one-read statement lists each panel's rows in that order).
 */
interface Panel {
  sql: string;
  order: string;
}

/** The person's visit rows as a FROM item, with more conditions: a read of visitor_visits, or the one-read statement's rows. */
type Visits = (where?: readonly string[]) => string;

const SOURCE_COLUMNS = [
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

/** The visit columns the panels read (the one-read statement keeps only these). */
const PANEL_COLUMNS = [
  "session_id",
  "start_ts",
  "end_ts",
  "n_pageviews",
  "n_custom",
  "n_shown",
  "engaged",
  "revenue_sum",
  "cur_min",
  "cur_max",
  "l_country",
  "l_region",
  "l_city",
  "src_ts",
  ...SOURCE_COLUMNS.map((c) => `src_${c}` as const),
  ...VISITOR_FACETS.map((c) => `fc_${c}` as const),
  "day_ts",
  "pv_paths",
  "c_names",
  "c_revenue",
  "c_currency",
] as const;

/** figuresSql() from the visit partials. */
function figuresPanel(q: Stmt, visits: Visits): Panel {
  const { f } = q;
  const cur = (c: string) => `CASE WHEN ${c} <> '' THEN ${c} END`;
  const visit =
    `SELECT session_id AS v_sid, min(start_ts) AS v_start, max(end_ts) AS v_end, sum(n_pageviews) AS v_pv, sum(n_custom) AS v_ev, ` +
    `sum(engaged) AS v_eng, sum(revenue_sum) AS v_rev, min(${cur("cur_min")}) AS v_cmin, max(${cur("cur_max")}) AS v_cmax, ` +
    `${f.argMax("l_country", "end_ts")} AS v_country, ${f.argMax("l_region", "end_ts")} AS v_region, ${f.argMax("l_city", "end_ts")} AS v_city ` +
    `FROM ${visits()} GROUP BY session_id`;
  return { sql: figuresOver(q, visit), order: "visits" };
}

/** facetsSql() from the visits' distinct facet values: every facet's values tagged with its index. */
function facetsPanel(q: Stmt, visits: Visits): Panel {
  const g = fns(q);
  const pairs = g.explode(visits(), ["session_id"], [[g.tagged(VISITOR_FACETS.map((c) => `fc_${c}`)), "v_pair"]]);
  const inner = `SELECT session_id, ${g.part("v_pair", 1)} AS v_facet, ${g.part("v_pair", 2)} AS v_value FROM ${pairs}`;
  return {
    sql:
      `SELECT v_facet AS facet, v_value AS value, ${q.d.uniq("session_id")} AS visits FROM (${inner}) GROUP BY v_facet, v_value ` +
      `ORDER BY facet, visits DESC, value ${q.d.limit(600, 0)}`,
    order: "facet, visits DESC, value",
  };
}

/** firstSourceSql() from the visits' first shown events. */
function firstSourcePanel(q: Stmt, visits: Visits): Panel {
  return {
    sql:
      `SELECT ${q.f.epochMs("src_ts")} AS ts_ms, ${SOURCE_COLUMNS.map((c) => `src_${c} AS ${c}`).join(", ")} ` +
      `FROM ${visits(["n_shown > 0"])} ORDER BY src_ts, src_path ${q.d.limit(1, 0)}`,
    order: "ts_ms, path",
  };
}

/** activeDaysSql() from the visits' shown events' times (the statement's scope holds the time zone). */
function activeDaysPanel(q: Stmt, visits: Visits, from: number, to: number): Panel {
  const times = fns(q).explode(visits(), [], [["day_ts", "v_ts"]]);
  const inner = `SELECT ${q.s.bucket("day", "v_ts")} AS v_key FROM ${times} WHERE v_ts >= ${q.p.ts(from)} AND v_ts < ${q.p.ts(to)}`;
  return {
    sql: `SELECT ${q.d.label("day", "v_key")} AS day, count() AS events FROM (${inner}) GROUP BY v_key ORDER BY v_key ${q.d.limit(400, 0)}`,
    // The label is the day as YYYY-MM-DD: in the same order as the key.
    order: "day",
  };
}

/** topPagesSql() from the visits' pageview paths. */
function topPagesPanel(q: Stmt, visits: Visits, n: number): Panel {
  const paths = fns(q).explode(visits(), [], [["pv_paths", "path"]]);
  return {
    sql: `SELECT path, count() AS pageviews FROM ${paths} GROUP BY path ORDER BY pageviews DESC, path ${q.d.limit(int(n), 0)}`,
    order: "pageviews DESC, path",
  };
}

/** topEventsSql() from the visits' custom events. */
function topEventsPanel(q: Stmt, visits: Visits, n: number): Panel {
  const evs = fns(q).explode(
    visits(),
    [],
    [
      ["c_names", "name"],
      ["c_revenue", "v_rev"],
      ["c_currency", "revenue_currency"],
    ],
  );
  return {
    sql:
      `SELECT name, count() AS events, sum(v_rev) AS a_revenue, coalesce(CASE WHEN min(${CURRENCY}) = max(${CURRENCY}) THEN min(${CURRENCY}) END, '') AS a_currency ` +
      `FROM ${evs} GROUP BY name ORDER BY events DESC, name ${q.d.limit(int(n), 0)}`,
    order: "events DESC, name",
  };
}

export function figuresFromVisitsSql(dialect: SqlDialect, property: string, who: Who): CompiledQuery {
  const q = new Stmt(dialect, property);
  return q.done(figuresPanel(q, (w) => visitsRead(q, who, w)).sql);
}

export function facetsFromVisitsSql(dialect: SqlDialect, property: string, who: Who): CompiledQuery {
  const q = new Stmt(dialect, property);
  return q.done(facetsPanel(q, (w) => visitsRead(q, who, w)).sql);
}

/**
 * perClientSql()'s rows from the summaries, in no order (the caller orders them: last seen first,
 * then client id). With an ORDER BY and LIMIT, DuckDB pushes the top-N's filter into a sequential
 * scan of every visitor's summary instead of reading the ids by index (at 10M events 29 against
 * 18 ms, measured); one row per id, so the LIMIT alone bounds it. Each row also carries the client
 * id's first seen and event count (first_ms, n): the person's span (where their events lie) comes
 * from the same read, which the page's later reads then wait for (visitors/reading.ts located()).
 */
export function perClientFromSummarySql(dialect: SqlDialect, property: string, ids: readonly string[]): CompiledQuery {
  const q = new Stmt(dialect, property);
  return q.done(
    `SELECT client_id, s_device AS a_device, s_browser AS a_browser, s_os AS a_os, s_first_ms AS first_ms, s_last_ms AS last_ms, s_n AS n FROM ${summaries(q, [q.clientIn(ids)])} ` +
      q.d.limit(int(ids.length), 0),
  );
}

export function firstSourceFromVisitsSql(dialect: SqlDialect, property: string, who: Who): CompiledQuery {
  const q = new Stmt(dialect, property);
  return q.done(firstSourcePanel(q, (w) => visitsRead(q, who, w)).sql);
}

export function activeDaysFromVisitsSql(
  dialect: SqlDialect,
  property: string,
  who: Who,
  timezone: string,
  from: number,
  to: number,
): CompiledQuery {
  const q = new Stmt(dialect, property, timezone, from, to);
  return q.done(activeDaysPanel(q, (w) => visitsRead(q, who, w), from, to).sql);
}

export function topPagesFromVisitsSql(dialect: SqlDialect, property: string, who: Who, n: number): CompiledQuery {
  const q = new Stmt(dialect, property);
  return q.done(topPagesPanel(q, (w) => visitsRead(q, who, w), n).sql);
}

export function topEventsFromVisitsSql(dialect: SqlDialect, property: string, who: Who, n: number): CompiledQuery {
  const q = new Stmt(dialect, property);
  return q.done(topEventsPanel(q, (w) => visitsRead(q, who, w), n).sql);
}

/** The page's panels, as visitorPanelsFromVisitsSql() answers them: each its rows, in its order. */
export const VISITOR_PANELS = ["figures", "facets", "first_source", "active_days", "top_pages", "top_events"] as const;
export type VisitorPanel = (typeof VISITOR_PANELS)[number];

/** Whether the dialect answers every panel of the page in one statement over one read of the visit rows (visitorPanelsFromVisitsSql). */
export const panelsInOneRead = (dialect: SqlDialect): boolean => FNS[dialect].panelLists !== null;

/**
 * Every panel of a visitor's page (figures, facets, first source, active days, top pages and top
 * events) in one statement: the person's visit rows are read once (by the client id index) and each
 * panel's statement runs over them, its rows as one list column named after the panel, in the
 * panel's order. The separate statements read the same rows six times: at 10M events a heavy
 * visitor's 510 visit rows cost 5 to 28 ms a read. Only where the dialect can hold a read for
 * several uses (panelsInOneRead).
 */
export function visitorPanelsFromVisitsSql(
  dialect: SqlDialect,
  property: string,
  who: Who,
  timezone: string,
  from: number,
  to: number,
  n: number,
): CompiledQuery {
  const q = new Stmt(dialect, property, timezone, from, to);
  const lists = FNS[dialect].panelLists;
  if (lists === null) throw new Error(`${dialect}: the visitor panels are read one statement each`);
  const named = new NamedRows(dialect);
  const read = named.define("pv_rows", `SELECT ${PANEL_COLUMNS.join(", ")} FROM ${visitsRead(q, who)}`);
  const rows: Visits = (w = []) => (w.length === 0 ? read : `${read} WHERE ${w.join(" AND ")}`);
  const panels: Record<VisitorPanel, Panel> = {
    figures: figuresPanel(q, rows),
    facets: facetsPanel(q, rows),
    first_source: firstSourcePanel(q, rows),
    active_days: activeDaysPanel(q, rows, from, to),
    top_pages: topPagesPanel(q, rows, n),
    top_events: topEventsPanel(q, rows, n),
  };
  return q.done(named.statement(lists(panels)));
}

/**
 * historyVisitsSql() without an event or date filter (visitors-plan.ts: those need the events), from
 * the visit partials: the same rows and columns.
 */
export function historyVisitsFromVisitsSql(
  dialect: SqlDialect,
  property: string,
  who: Who,
  o: Pick<HistoryOptions, "after" | "limit">,
): CompiledQuery {
  const q = new Stmt(dialect, property);
  const { d, f, p } = q;
  const start = f.epochMs("min(start_ts)");
  let having = "";
  if (o.after) {
    const t = int(o.after.ts);
    having = ` HAVING (${start} < ${t} OR (${start} = ${t} AND session_id < ${p.add(o.after.session_id)}))`;
  }
  const first = (c: string) => `${f.argMin(`f_${c}`, "start_ts")} AS a_${c}`;
  const sql =
    `SELECT session_id, ${f.argMin("client_id", "start_ts")} AS a_client_id, ${start} AS start_ms, ${f.epochMs("max(end_ts)")} AS end_ms, ` +
    `sum(n_pageviews) AS pageviews, sum(engaged) AS a_engaged_ms, sum(n_shown) AS events_total, ` +
    `coalesce(${f.argMinIf("entry_path", "entry_ts", "n_pageviews > 0")}, '') AS entry_page, ` +
    `${f.argMin("f_referrer_source", "start_ts")} AS entry_source, ${["channel", "device", "browser", "os", "country", "region", "city"].map(first).join(", ")} ` +
    `FROM ${visitsRead(q, who)} GROUP BY session_id${having} ORDER BY start_ms DESC, session_id DESC ${d.limit(int(o.limit + 1), 0)}`;
  return q.done(sql);
}

/** visitorListSql() from the summaries: the same rows and columns. */
export function visitorListFromSummarySql(dialect: SqlDialect, property: string, o: VisitorListOptions): CompiledQuery {
  const q = new Stmt(dialect, property);
  const { d, p } = q;
  const pre: string[] = [];
  if (o.search) {
    const s = p.add(o.search);
    const found = `SELECT client_id FROM ${q.profiles([`(${d.contains("email", s)} OR ${d.contains("name", s)})`])}`;
    pre.push(`(${d.contains("client_id", s)} OR client_id IN (${found}))`);
  }
  if (o.identified !== "all") {
    pre.push(
      `client_id ${o.identified === "identified" ? "IN" : "NOT IN"} (SELECT client_id FROM ${q.profiles(["email <> ''"])})`,
    );
  }
  // Each order's key as answered (ms or a count: the cursor's) and as stored (the ORDER BY's; the
  // same order, since stored times are whole milliseconds).
  const KEY = {
    last_seen: ["s_last_ms", "s_last_ts"],
    first_seen: ["s_first_ms", "s_first_ts"],
    visits: ["s_visits", "s_visits"],
    events: ["s_events", "s_events"],
  } as const;
  const [key, stored] = KEY[o.order];
  const where: string[] = [];
  if (o.after) {
    const k = int(o.after.key);
    where.push(`(${key} < ${k} OR (${key} = ${k} AND client_id < ${p.add(o.after.client_id)}))`);
  }
  const latest = VISIT_LAST.map((c) => `s_${c} AS a_${c}`).join(", ");
  const sql =
    `SELECT client_id, ${key} AS sort_key, s_first_ms AS first_ms, s_last_ms AS last_ms, s_visits AS visits, s_pageviews AS pageviews, ` +
    `s_events AS events, s_revenue AS a_revenue, ${latest} FROM ${summaries(q, pre)}${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""} ` +
    `ORDER BY ${stored} DESC, client_id DESC ${d.limit(int(o.limit + 1), 0)}`;
  return q.done(sql);
}
