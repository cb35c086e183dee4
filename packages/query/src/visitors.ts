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
//
// This file: a person's profile, figures, facets, span, devices, first source, active days, top
// pages and events. The shared parts are in visitors-stmt.ts, the paged statements (history, list,
// export) in visitors-history.ts; both are re-exported here.
import type { CompiledQuery } from "./compiled.js";
import type { SqlDialect } from "./dialects.js";
import { int } from "./params.js";
import { CURRENCY, CUSTOM, idsOf, Stmt, type Who } from "./visitors-stmt.js";

export * from "./visitors-history.js";
export * from "./visitors-stmt.js";

/** Profiles of these client ids (rows: client_id, email, name, traits, first_seen_ms, last_seen_ms). */
export function profilesSql(dialect: SqlDialect, property: string, ids: readonly string[]): CompiledQuery {
  const q = new Stmt(dialect, property);
  return q.done(
    `SELECT ${q.f.profileColumns} FROM ${q.profiles([], [q.clientIn(ids)])} ORDER BY client_id ${q.d.limit(int(ids.length), 0)}`,
  );
}

/**
 * A person's profiles in one read: this client id's, then those of every other client id identified
 * with its e-mail (case-insensitive), by client id, `max` others at most (rows as profilesSql();
 * none when the client id has no profile). One statement where the page used to read the client
 * id's profile and then the ids with its e-mail, two in a row: a visitor's page starts with it.
 */
export function personSql(dialect: SqlDialect, property: string, clientId: string, max: number): CompiledQuery {
  const q = new Stmt(dialect, property);
  const c = q.p.add(clientId);
  const own = q.profiles(["email <> ''"], [q.clientIn([clientId])]);
  const mine = `(client_id = ${c} OR (email <> '' AND lower(email) IN (SELECT lower(email) FROM ${own})))`;
  return q.done(
    `SELECT ${q.f.profileColumns} FROM ${q.profiles([mine])} ORDER BY client_id = ${c} DESC, client_id ${q.d.limit(int(max + 1), 0)}`,
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
