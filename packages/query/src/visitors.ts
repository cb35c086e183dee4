// The visitor queries (issue #21, DESIGN.md §5 visitors): one visitor's (or person's: several
// client ids with one e-mail) profile, figures, facets, active days, top pages and events, the
// history by visit with keyset cursors, the visitors list, and a visitor's raw events for export.
// Printed for either dialect like every other statement: the `events` reads go through
// relation.ts (the property predicate), every value is a bound parameter, integers are checked
// before printing, every statement has a LIMIT. The `visitors` profile table is keyed by the
// property's id in both engines (DuckDB has no pkey there), so its reads compare the id itself.
// DuckDB keeps one merged row per visitor; ClickHouse one row per upsert, folded on read (chProfiles).
//
// No output alias repeats the name of a column its SELECT reads (ClickHouse reads such an alias as
// cyclic): those outputs are named a_<column>.
//
// Timestamps come back as epoch milliseconds (integers): the same in both engines, and exact
// enough to serve as keyset positions (DuckDB keeps milliseconds; ClickHouse 18.16 seconds).
import { EVENT_COLUMN_NAMES, type VisitorOrder } from "@lookout/schema";
import type { CompiledQuery } from "./compiled.js";
import { DIALECTS, type Dialect, type SqlDialect } from "./dialects.js";
import { int, Params } from "./params.js";
import { Scope } from "./parts.js";
import { tableRead } from "./relation.js";
import { NON_CUSTOM_EVENT_NAMES } from "./tables.js";

/** What the two engines spell differently in these statements (dialects.ts has the shared table). */
export interface VisitorFns {
  argMax(e: string, by: string): string;
  argMin(e: string, by: string): string;
  argMinIf(e: string, by: string, cond: string): string;
  sumIf(e: string, cond: string): string;
  epochMs(e: string): string;
  /**
   * The profiles of a property as a FROM item: `pre` on the stored rows (client_id conditions only),
   * `where` on the merged profile (client_id, email, name, ...). See chProfiles().
   */
  profiles(property: string, pre: readonly string[], where: readonly string[]): string;
  /** The SELECT list of a profile read (rows: client_id, email, name, traits, first_seen_ms, last_seen_ms). */
  profileColumns: string;
  /** Columns holding a string map column, read back by mapOf(). */
  mapColumns(column: string, as: string): string;
  /** At most `n` rows per `key` (in the statement's order), `total` in all: printed after ORDER BY. */
  limitPer(key: string, orderInKey: string, n: number, total: number): { qualify: string; limit: string };
}

/**
 * ClickHouse keeps one `visitors` row per upsert (the storage adapter's clickhouse-sql.ts: no
 * read-modify-write), so a read folds them by the EventStore's merge rules: the latest non-empty
 * e-mail and name, the earliest first and latest last seen (epoch ms columns), and the traits of
 * every upsert in upsert order, as arrays of key and value arrays that mapOf() folds key by key
 * (later wins). The fold's outputs are named p_* (an alias may not reuse a column it reads) and
 * renamed around it, so that `where` reads the merged profile by the DuckDB names.
 */
function chProfiles(property: string, pre: readonly string[], where: readonly string[]): string {
  const byVersion = (c: string) =>
    `arrayMap(t -> tupleElement(t, 2), arraySort(t -> tupleElement(t, 1), groupArray((version, ${c}))))`;
  const fold =
    `SELECT client_id, argMaxIf(email, version, email <> '') AS p_email, argMaxIf(name, version, name <> '') AS p_name, ` +
    `${byVersion("traits.key")} AS p_tk, ${byVersion("traits.value")} AS p_tv, min(first_seen_ms) AS p_first, max(last_seen_ms) AS p_last ` +
    `FROM visitors WHERE ${[`property = ${property}`, ...pre].join(" AND ")} GROUP BY client_id`;
  return (
    `(SELECT client_id, p_email AS email, p_name AS name, p_tk AS traits_keys, p_tv AS traits_values, ` +
    `p_first AS first_seen_ms, p_last AS last_seen_ms FROM (${fold})${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""})`
  );
}

const FNS: Record<SqlDialect, VisitorFns> = {
  duckdb: {
    argMax: (e, by) => `arg_max(${e}, ${by})`,
    argMin: (e, by) => `arg_min(${e}, ${by})`,
    argMinIf: (e, by, c) => `arg_min(${e}, ${by}) FILTER (WHERE ${c})`,
    sumIf: (e, c) => `coalesce(sum(${e}) FILTER (WHERE ${c}), 0)`,
    epochMs: (e) => `epoch_ms(${e})`,
    profiles: (property, pre, where) => `visitors WHERE ${[`property = ${property}`, ...pre, ...where].join(" AND ")}`,
    profileColumns:
      "client_id, email, name, traits AS traits, epoch_ms(first_seen) AS first_seen_ms, epoch_ms(last_seen) AS last_seen_ms",
    mapColumns: (c, as) => `${c} AS ${as}`,
    limitPer: (key, order, n, total) => ({
      qualify: ` QUALIFY row_number() OVER (PARTITION BY ${key} ORDER BY ${order}) <= ${int(n)}`,
      limit: `LIMIT ${int(total)}`,
    }),
  },
  clickhouse: {
    argMax: (e, by) => `argMax(${e}, ${by})`,
    argMin: (e, by) => `argMin(${e}, ${by})`,
    argMinIf: (e, by, c) => `argMinIf(${e}, ${by}, ${c})`,
    sumIf: (e, c) => `sumIf(${e}, ${c})`,
    epochMs: (e) => `(toUInt64(toUnixTimestamp(${e})) * 1000)`,
    profiles: chProfiles,
    profileColumns: "client_id, email, name, traits_keys, traits_values, first_seen_ms, last_seen_ms",
    mapColumns: (c, as) => `${c}.key AS ${as}_keys, ${c}.value AS ${as}_values`,
    limitPer: (key, _order, n, total) => ({ qualify: "", limit: `LIMIT ${int(n)} BY ${key} LIMIT 0, ${int(total)}` }),
  },
};

/** A map column read through VisitorFns.mapColumns, as a plain record (DuckDB: already one). */
export function mapOf(row: Record<string, unknown>, as: string): Record<string, string> {
  const v = row[as];
  if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, string>;
  const keys = row[`${as}_keys`];
  const values = row[`${as}_values`];
  const out: Record<string, string> = {};
  if (!Array.isArray(keys) || !Array.isArray(values)) return out;
  // ClickHouse profiles: one key and one value array per upsert, oldest first (chProfiles).
  const k = keys.flat();
  const vs = values.flat();
  for (let i = 0; i < k.length; i++) out[String(k[i])] = String(vs[i] ?? "");
  return out;
}

/** A row's revenue currency, NULL without one: min = max over rows then means "all in one currency". */
export const CURRENCY = "CASE WHEN revenue_currency <> '' THEN revenue_currency END";
export const CUSTOM = `name NOT IN (${NON_CUSTOM_EVENT_NAMES.map((n) => `'${n}'`).join(", ")})`;

/** Where a person's events lie in time: their first and last event (epoch ms, both inclusive). */
export interface Span {
  from: number;
  to: number;
}

/**
 * The client ids whose events a statement reads, and optionally their span: the events table is
 * in time order, so a span lets the engine skip every block outside it (min/max zone maps), where
 * a client id alone has to be compared on every row of the property.
 */
export type Who = readonly string[] | { ids: readonly string[]; span: Span };
export const idsOf = (w: Who): readonly string[] => ("span" in w ? w.ids : w);

const utf8 = new TextEncoder();
/** Strings in UTF-8 byte order (how DuckDB and ClickHouse compare them). */
function byBytes(a: string, b: string): number {
  const [x, y] = [utf8.encode(a), utf8.encode(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

/** One statement's parameters and reads (visitors-digest.ts prints with it too). */
export class Stmt {
  readonly d: Dialect;
  readonly f: VisitorFns;
  readonly p: Params;
  readonly s: Scope;
  readonly propertyId: string;

  constructor(dialect: SqlDialect, property: string, timezone = "UTC", from = 0, to = 0) {
    this.d = DIALECTS[dialect];
    this.f = FNS[dialect];
    this.p = new Params(this.d);
    this.s = new Scope(this.d, this.p, property, [{ from, to }], timezone);
    this.propertyId = this.p.add(property);
  }

  /** `events WHERE <property>[ AND <span>] AND client_id IN (...)[ AND where]`. */
  events(who: Who, where: readonly string[] = []): string {
    // Timestamps bind as whole seconds: the span widens to the seconds around it.
    const span = "span" in who ? [`ts >= ${this.p.ts(who.span.from)}`, `ts < ${this.p.ts(who.span.to + 1000)}`] : [];
    return tableRead(this.s, "events", [...span, this.clientIn(idsOf(who)), ...where]);
  }

  /**
   * `column` is one of `ids`. DuckDB pushes an equality or a range into its scan (only the rows that
   * pass are read further) but an IN list only as a zone-map hint, after every row of every column
   * read has been produced (measured: a 240 000-row visitor_visits scan emitted whole). So one id is
   * an equality, and several are bounded by their least and greatest first (byte order, as both
   * engines compare strings).
   */
  clientIn(ids: readonly string[], column = "client_id"): string {
    if (ids.length === 0) throw new Error("no client ids");
    if (ids.length === 1) return `${column} = ${this.p.add(ids[0] as string)}`;
    const sorted = [...ids].sort(byBytes);
    const range = `${column} >= ${this.p.add(sorted[0] as string)} AND ${column} <= ${this.p.add(sorted[sorted.length - 1] as string)}`;
    return `(${range} AND ${column} IN (${ids.map((id) => this.p.add(id)).join(", ")}))`;
  }

  /** The property's merged profiles (FROM item): `pre` on client_id only, `where` on the profile. */
  profiles(where: readonly string[], pre: readonly string[] = []): string {
    return this.f.profiles(this.propertyId, pre, where);
  }

  done(sql: string): CompiledQuery {
    const params = this.p.usedIn(sql);
    const keyParams = Object.keys(params).filter((n) => this.p.keyNames.has(n));
    return { sql, params, ...(keyParams.length > 0 ? { keyParams } : {}) };
  }
}

/** Profiles of these client ids (rows: client_id, email, name, traits, first_seen_ms, last_seen_ms). */
export function profilesSql(dialect: SqlDialect, property: string, ids: readonly string[]): CompiledQuery {
  const q = new Stmt(dialect, property);
  return q.done(
    `SELECT ${q.f.profileColumns} FROM ${q.profiles([], [q.clientIn(ids)])} ORDER BY client_id ${q.d.limit(int(ids.length), 0)}`,
  );
}

/** The client ids identified with this e-mail (case-insensitive): one person. */
export function personIdsSql(dialect: SqlDialect, property: string, email: string, max: number): CompiledQuery {
  const q = new Stmt(dialect, property);
  const e = q.p.add(email);
  return q.done(
    `SELECT client_id FROM ${q.profiles([`email <> ''`, `lower(email) = lower(${e})`])} ORDER BY client_id ${q.d.limit(int(max), 0)}`,
  );
}

/**
 * The person's figures in one row, from their visits: visits, pageviews, custom events, engaged
 * ms, revenue, first/last seen, the average visit duration, and where the latest event came from.
 */
export function figuresSql(dialect: SqlDialect, property: string, ids: Who): CompiledQuery {
  const q = new Stmt(dialect, property);
  const { d, f } = q;
  const visit =
    `SELECT session_id AS v_sid, min(ts) AS v_start, max(ts) AS v_end, ${d.countIf("name = 'pageview'")} AS v_pv, ` +
    `${d.countIf(CUSTOM)} AS v_ev, ${f.sumIf("engaged_ms", "name = 'engagement'")} AS v_eng, sum(revenue) AS v_rev, ` +
    `min(${CURRENCY}) AS v_cmin, max(${CURRENCY}) AS v_cmax, ` +
    `${f.argMax("country", "ts")} AS v_country, ${f.argMax("region", "ts")} AS v_region, ${f.argMax("city", "ts")} AS v_city ` +
    `FROM ${q.events(ids)} GROUP BY session_id`;
  return q.done(figuresOver(q, visit));
}

/**
 * The person's figures from their visits (`visit`: rows v_sid, v_start, v_end, v_pv, v_ev, v_eng,
 * v_rev, v_cmin, v_cmax, v_country, v_region, v_city), whichever table those come from.
 */
export function figuresOver(q: Stmt, visit: string): string {
  const { d, f } = q;
  return (
    `SELECT count() AS visits, coalesce(sum(v_pv), 0) AS pageviews, coalesce(sum(v_ev), 0) AS events, ` +
    `coalesce(sum(v_eng), 0) AS engaged_ms, coalesce(sum(v_rev), 0) AS revenue, ` +
    `coalesce(CASE WHEN min(v_cmin) = max(v_cmax) THEN min(v_cmin) END, '') AS revenue_currency, ` +
    `${f.epochMs("min(v_start)")} AS first_ms, ${f.epochMs("max(v_end)")} AS last_ms, ` +
    `coalesce(avg(${f.epochMs("v_end")} - ${f.epochMs("v_start")}), 0) AS avg_visit_ms, ` +
    `${f.argMax("v_country", "v_end")} AS country, ${f.argMax("v_region", "v_end")} AS region, ${f.argMax("v_city", "v_end")} AS city ` +
    `FROM (${visit}) ${d.limit(1, 0)}`
  );
}

/** Facet columns, numbered as facetsSql() answers them. */
export const VISITOR_FACETS = ["device", "browser", "os", "screen", "language", "country"] as const;
export type VisitorFacet = (typeof VISITOR_FACETS)[number];

/** Per facet and value, the visits it was seen in (rows: facet index, value, visits). */
export function facetsSql(dialect: SqlDialect, property: string, ids: Who): CompiledQuery {
  const q = new Stmt(dialect, property);
  const parts = VISITOR_FACETS.map(
    (c, i) =>
      `SELECT ${int(i)} AS facet, ${c} AS value, ${q.d.uniq("session_id")} AS visits FROM ${q.events(ids, [`${c} <> ''`])} GROUP BY ${c}`,
  );
  return q.done(
    `SELECT facet, value, visits FROM (${parts.join(" UNION ALL ")}) ORDER BY facet, visits DESC, value ${q.d.limit(600, 0)}`,
  );
}

/** Where the person's events lie and how many there are (rows: first_ms, last_ms, n; n = 0 when none). */
export function spanSql(dialect: SqlDialect, property: string, ids: readonly string[]): CompiledQuery {
  const q = new Stmt(dialect, property);
  const { f } = q;
  return q.done(
    `SELECT ${f.epochMs("min(ts)")} AS first_ms, ${f.epochMs("max(ts)")} AS last_ms, count() AS n FROM ${q.events(ids)} ${q.d.limit(1, 0)}`,
  );
}

/** Per client id of the person: its latest device, browser, OS and when it was last seen (rows: client_id, a_device, a_browser, a_os, last_ms). */
export function perClientSql(dialect: SqlDialect, property: string, ids: Who): CompiledQuery {
  const q = new Stmt(dialect, property);
  const { f } = q;
  const sql =
    `SELECT client_id, ${f.argMax("device", "ts")} AS a_device, ${f.argMax("browser", "ts")} AS a_browser, ${f.argMax("os", "ts")} AS a_os, ` +
    `${f.epochMs("max(ts)")} AS last_ms FROM ${q.events(ids)} GROUP BY client_id ORDER BY last_ms DESC, client_id ${q.d.limit(int(idsOf(ids).length), 0)}`;
  return q.done(sql);
}

/** The person's first event that is not an engagement ping: where they first came from. */
export function firstSourceSql(dialect: SqlDialect, property: string, ids: Who): CompiledQuery {
  const q = new Stmt(dialect, property);
  const sql =
    `SELECT ${q.f.epochMs("ts")} AS ts_ms, referrer, referrer_source, channel, path, utm_source, utm_medium, utm_campaign, utm_term, utm_content ` +
    `FROM ${q.events(ids, ["name <> 'engagement'"])} ORDER BY ts_ms, path ${q.d.limit(1, 0)}`;
  return q.done(sql);
}

/** Events per local day (the property's timezone) from `from` to `to` (rows: day 'YYYY-MM-DD', events). */
export function activeDaysSql(
  dialect: SqlDialect,
  property: string,
  ids: Who,
  timezone: string,
  from: number,
  to: number,
): CompiledQuery {
  const q = new Stmt(dialect, property, timezone, from, to);
  const inner = `SELECT ${q.s.bucket("day", "ts")} AS v_key FROM ${q.events(ids, ["name <> 'engagement'", `ts >= ${q.p.ts(from)}`, `ts < ${q.p.ts(to)}`])}`;
  return q.done(
    `SELECT ${q.d.label("day", "v_key")} AS day, count() AS events FROM (${inner}) GROUP BY v_key ORDER BY v_key ${q.d.limit(400, 0)}`,
  );
}

export function topPagesSql(dialect: SqlDialect, property: string, ids: Who, n: number): CompiledQuery {
  const q = new Stmt(dialect, property);
  return q.done(
    `SELECT path, count() AS pageviews FROM ${q.events(ids, ["name = 'pageview'"])} GROUP BY path ORDER BY pageviews DESC, path ${q.d.limit(int(n), 0)}`,
  );
}

export function topEventsSql(dialect: SqlDialect, property: string, ids: Who, n: number): CompiledQuery {
  const q = new Stmt(dialect, property);
  return q.done(
    `SELECT name, count() AS events, sum(revenue) AS a_revenue, coalesce(CASE WHEN min(${CURRENCY}) = max(${CURRENCY}) THEN min(${CURRENCY}) END, '') AS a_currency FROM ${q.events(ids, [CUSTOM])} GROUP BY name ORDER BY events DESC, name ${q.d.limit(int(n), 0)}`,
  );
}

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
 * The shown events of these visits in time order, at most `perVisit` each (rows: session_id,
 * client_id, ts_ms, name, path, url, title, props, revenue, revenue_currency).
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
  const where = [...historyWhere(q, o), q.clientIn(sessionIds, "session_id")];
  where.push(o.event !== undefined ? `name = ${q.p.add(o.event)}` : "name <> 'engagement'");
  const per = q.f.limitPer("session_id", "ts, name", perVisit, perVisit * sessionIds.length);
  const sql =
    `SELECT session_id, client_id, ${q.f.epochMs("ts")} AS ts_ms, name, path, url, title, ${q.f.mapColumns("props", "props")}, revenue, revenue_currency ` +
    `FROM ${q.events(ids, where)}${per.qualify} ORDER BY session_id, ts_ms, name ${per.limit}`;
  return q.done(sql);
}

/** The engagement pings of these visits (rows: session_id, ts_ms, engaged_ms): time on page. */
export function historyPingsSql(
  dialect: SqlDialect,
  property: string,
  ids: Who,
  sessionIds: readonly string[],
  max: number,
): CompiledQuery {
  const q = new Stmt(dialect, property);
  const where = ["name = 'engagement'", q.clientIn(sessionIds, "session_id")];
  return q.done(
    `SELECT session_id, ${q.f.epochMs("ts")} AS ts_ms, engaged_ms FROM ${q.events(ids, where)} ORDER BY session_id, ts_ms ${q.d.limit(int(max), 0)}`,
  );
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
  const sql = `SELECT ${q.f.epochMs("ts")} AS ts_ms, ${cols.join(", ")}, ${q.f.mapColumns("props", "props")} FROM ${q.events([clientId])} ORDER BY ts_ms, name ${q.d.limit(int(max), 0)}`;
  return q.done(sql);
}
