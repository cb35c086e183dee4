// The visitor statements over the per-visitor tables (visitors-tables.ts): the same answers as the
// statements over `events` in visitors.ts (same rows, same column names; the model tests compare
// both), read from a visitor's own rows instead of a scan of the property's events: the person's
// span and devices, the history's visits and the list. The page's panels are folded from the
// visit rows in visitors-panels.ts. visitors-plan.ts decides which of the two answers a read.
//
// Reads go through relation.ts like every other (the property predicate first); the visit
// partials of one visit fold by session_id; ClickHouse's summary states merge per client id.
import type { CompiledQuery } from "./compiled.js";
import type { SqlDialect } from "./dialects.js";
import { int } from "./params.js";
import { tableRead } from "./relation.js";
import { type HistoryOptions, idsOf, Stmt, type VisitorListOptions, type Who } from "./visitors.js";
import { SUMMARY_COLUMNS, VISIT_LAST } from "./visitors-tables.js";

/** What the two engines spell differently here. */
interface DigestFns {
  /** A summary column's value from its stored form (ClickHouse: an aggregate state, merged). */
  merged(column: string, fn: string): string;
  /** After the summary read: ClickHouse merges the states of each client id. */
  summaryGroup: string;
}

const FNS: Record<SqlDialect, DigestFns> = {
  duckdb: { merged: (c) => c, summaryGroup: "" },
  clickhouse: { merged: (c, fn) => `${fn}Merge(${c})`, summaryGroup: " GROUP BY client_id" },
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
