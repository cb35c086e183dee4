// The visitor statements that page (issue #21): a person's history by visit with keyset cursors
// (the visits, their events and their engagement pings), the visitors list with its keyset, and one
// visitor's raw events for export. Shared parts: visitors-stmt.ts; the header of visitors.ts says
// how they are printed.
import { EVENT_COLUMN_NAMES, type VisitorOrder } from "@lookout/schema";
import type { CompiledQuery } from "./compiled.js";
import type { SqlDialect } from "./dialects.js";
import { int } from "./params.js";
import { tableRead } from "./relation.js";
import { CUSTOM, Stmt, type Who } from "./visitors-stmt.js";

/** A keyset position in a history: the visit's start (epoch ms) and session id. */
export interface VisitPosition {
  ts: number;
  session_id: string;
}

export interface HistoryOptions {
  /** Visits after this one in the order (newest first). */
  after?: VisitPosition;
  /** Only visits with this event name, and only those events. */
  event?: string;
  /** Only events in [from, to) (epoch ms). */
  from?: number;
  to?: number;
  limit: number;
}

function historyWhere(q: Stmt, o: Pick<HistoryOptions, "from" | "to">): string[] {
  const where: string[] = [];
  if (o.from !== undefined) where.push(`ts >= ${q.p.ts(o.from)}`);
  if (o.to !== undefined) where.push(`ts < ${q.p.ts(o.to)}`);
  return where;
}

/**
 * A page of the person's visits, newest first (rows: session_id, a_client_id, start_ms, end_ms,
 * pageviews, a_engaged_ms, events_total, entry_page, entry_source, and the first event's a_channel,
 * a_device, a_browser, a_os, a_country, a_region, a_city). Asks for limit + 1 rows: the extra one says there is more.
 */
export function historyVisitsSql(dialect: SqlDialect, property: string, ids: Who, o: HistoryOptions): CompiledQuery {
  const q = new Stmt(dialect, property);
  const { d, f, p } = q;
  const where = historyWhere(q, o);
  if (o.event !== undefined) {
    where.push(`session_id IN (SELECT session_id FROM ${q.events(ids, [...where, `name = ${p.add(o.event)}`])})`);
  }
  const shown = o.event !== undefined ? `name = ${p.add(o.event)}` : "name <> 'engagement'";
  const start = f.epochMs("min(ts)");
  const first = (c: string) => `${f.argMin(c, "ts")} AS a_${c}`;
  let having = "";
  if (o.after) {
    const t = int(o.after.ts);
    having = ` HAVING (${start} < ${t} OR (${start} = ${t} AND session_id < ${p.add(o.after.session_id)}))`;
  }
  const sql =
    `SELECT session_id, ${f.argMin("client_id", "ts")} AS a_client_id, ${start} AS start_ms, ${f.epochMs("max(ts)")} AS end_ms, ` +
    `${d.countIf("name = 'pageview'")} AS pageviews, ${f.sumIf("engaged_ms", "name = 'engagement'")} AS a_engaged_ms, ` +
    `${d.countIf(shown)} AS events_total, coalesce(${f.argMinIf("path", "ts", "name = 'pageview'")}, '') AS entry_page, ` +
    `${f.argMin("referrer_source", "ts")} AS entry_source, ${["channel", "device", "browser", "os", "country", "region", "city"].map(first).join(", ")} ` +
    `FROM ${q.events(ids, where)} GROUP BY session_id${having} ORDER BY start_ms DESC, session_id DESC ${d.limit(int(o.limit + 1), 0)}`;
  return q.done(sql);
}

/**
 * The events of these visits in time order with their engagement pings, in one read of `events`
 * (rows: session_id, client_id, ts_ms, name, path, url, title, props, revenue, revenue_currency,
 * engaged_ms, and two flags: `shown`, the event is one the history lists (not a ping, or the
 * filter's event, inside the range), and `ping`, an engagement ping, which time on page sums).
 * At most `perVisit` shown and `perVisit` other rows a visit. Pings and events were two reads of
 * the same rows, the page's two costliest (a heavy visitor at 10M events: 40 and 49 ms alone).
 */
export function historyEventsSql(
  dialect: SqlDialect,
  property: string,
  ids: Who,
  sessionIds: readonly string[],
  o: Pick<HistoryOptions, "event" | "from" | "to">,
  perVisit: number,
): CompiledQuery {
  const q = new Stmt(dialect, property);
  const ping = "name = 'engagement'";
  const shown = [...historyWhere(q, o), o.event !== undefined ? `name = ${q.p.add(o.event)}` : `NOT (${ping})`].join(" AND ");
  const where = [q.clientIn(sessionIds, "session_id"), `(${ping} OR (${shown}))`];
  // Events of one visit that share a millisecond and a name come in path order: without it, which
  // comes first (and so each pageview's time on page) changed with the engine's scan threads.
  const flag = (c: string) => `CASE WHEN ${c} THEN 1 ELSE 0 END`;
  const per = q.f.limitPer(`session_id, ${shown}`, "ts, name, path", perVisit, 2 * perVisit * sessionIds.length);
  const sql =
    `SELECT session_id, client_id, ${q.f.epochMs("ts")} AS ts_ms, name, path, url, title, ${q.f.mapColumns("props", "props")}, revenue, revenue_currency, ` +
    `engaged_ms, ${flag(shown)} AS shown, ${flag(ping)} AS ping ` +
    `FROM ${q.events(ids, where)}${per.qualify} ORDER BY session_id, ts_ms, name, path ${per.limit}`;
  return q.done(sql);
}

/** A keyset position in the list: the order key's value (epoch ms or a count) and the client id. */
export interface ListPosition {
  key: number;
  client_id: string;
}

export interface VisitorListOptions {
  search?: string;
  order: VisitorOrder;
  identified: "all" | "identified" | "anonymous";
  after?: ListPosition;
  limit: number;
}

/**
 * A page of the property's visitors by client id, `order` descending then client id descending
 * (rows: client_id, sort_key, first_ms, last_ms, visits, pageviews, events, a_revenue, and the
 * latest event's a_country, a_region, a_city, a_device, a_browser, a_os). limit + 1 rows: the extra one says there is more.
 */
export function visitorListSql(dialect: SqlDialect, property: string, o: VisitorListOptions): CompiledQuery {
  const q = new Stmt(dialect, property);
  const { d, f, p } = q;
  const where: string[] = [];
  if (o.search) {
    const s = p.add(o.search);
    const found = `SELECT client_id FROM ${q.profiles([`(${d.contains("email", s)} OR ${d.contains("name", s)})`])}`;
    where.push(`(${d.contains("client_id", s)} OR client_id IN (${found}))`);
  }
  if (o.identified !== "all") {
    const ids = `SELECT client_id FROM ${q.profiles(["email <> ''"])}`;
    where.push(`client_id ${o.identified === "identified" ? "IN" : "NOT IN"} (${ids})`);
  }
  const KEY: Record<VisitorOrder, string> = {
    last_seen: f.epochMs("max(ts)"),
    first_seen: f.epochMs("min(ts)"),
    visits: d.uniq("session_id"),
    events: d.countIf(CUSTOM),
  };
  const key = KEY[o.order];
  let having = "";
  if (o.after) {
    const k = int(o.after.key);
    having = ` HAVING (${key} < ${k} OR (${key} = ${k} AND client_id < ${p.add(o.after.client_id)}))`;
  }
  const latest = ["country", "region", "city", "device", "browser", "os"].map((c) => `${f.argMax(c, "ts")} AS a_${c}`).join(", ");
  const sql =
    `SELECT client_id, ${key} AS sort_key, ${f.epochMs("min(ts)")} AS first_ms, ${f.epochMs("max(ts)")} AS last_ms, ` +
    `${d.uniq("session_id")} AS visits, ${d.countIf("name = 'pageview'")} AS pageviews, ${d.countIf(CUSTOM)} AS events, ` +
    `sum(revenue) AS a_revenue, ${latest} FROM ${tableRead(q.s, "events", where)} GROUP BY client_id${having} ` +
    `ORDER BY sort_key DESC, client_id DESC ${d.limit(int(o.limit + 1), 0)}`;
  return q.done(sql);
}

/** Every event of one client id, oldest first, for its export (rows: the event columns; ts_ms). */
export function visitorEventsSql(dialect: SqlDialect, property: string, clientId: string, max: number): CompiledQuery {
  const q = new Stmt(dialect, property);
  const cols = EVENT_COLUMN_NAMES.filter((c) => c !== "ts" && c !== "props" && c !== "property");
  const sql = `SELECT ${q.f.epochMs("ts")} AS ts_ms, ${cols.join(", ")}, ${q.f.mapColumns("props", "props")} FROM ${q.events([clientId])} ORDER BY ts_ms, name, path ${q.d.limit(int(max), 0)}`;
  return q.done(sql);
}
