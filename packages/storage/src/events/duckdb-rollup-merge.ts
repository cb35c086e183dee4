// The rollup step's common case, merged rather than recomputed: a visit of a visitor who has no
// other visit, whose new events all come after everything the rollups hold of it (a visit in
// progress, or a new visitor's first visit). Its rows are the stored rows plus what the step's own
// events add, so neither the visit's earlier events nor its visitor's history are read again, and
// there is no prev_* to derive (a visitor's only visit has none). The full step
// (duckdb-rollup.ts) re-read every event of each touched visit since the earliest one began,
// which under steady traffic was most of its cost, and grows with how long visits last.
//
// Exact, as the full step is (rollup.test.ts checks both against the plain definition):
// - Later events cannot change a visit's first event (its start and attributes), nor its entry
//   page once it has a pageview; its exit page is the step's last pageview, if it has one.
// - A page's row sums every engagement ping of that page in the visit, also pings that came before
//   the page's first pageview; those were in no row until then. A visit holding such pings (its
//   engaged time is more than its pages' rows sum; pings are never negative) takes the full step.
import type { DuckDBConnection } from "@duckdb/node-api";
import { SESSION_ATTRIBUTE_COLUMNS, SESSION_COLUMNS } from "@lookout/query";
import {
  CUSTOM,
  E_ALL,
  EPOCH,
  EVENT_SUMS,
  P_ALL,
  PAGE_SUMS,
  ROLLUP_EVENT_COLUMNS,
  replaceRows,
  S_ALL,
  sessionAgg,
  storedRows,
} from "./duckdb-rollup-sql.js";

const ATTRIBUTES = new Set<string>(SESSION_ATTRIBUTE_COLUMNS);
/** Stored and new pageviews (o: the stored row, if any; n: the step's events aggregated). */
const PV = "(coalesce(o.pageviews, 0) + n.pageviews)";
const CUSTOM_EVENTS = "(coalesce(o.events, 0) + n.events)";

/** A visit's merged row, column by column. */
function mergedSessionColumn(c: string): string {
  if (c.startsWith("prev_")) return `${EPOCH} AS ${c}`;
  if (ATTRIBUTES.has(c)) return `coalesce(o.${c}, n.${c}) AS ${c}`;
  switch (c) {
    case "property":
    case "pkey":
    case "skey":
    case "vkey":
    case "end_ts":
      return `n.${c}`;
    case "start_ts":
      return "coalesce(o.start_ts, n.start_ts) AS start_ts";
    case "duration":
      return "epoch(n.end_ts - coalesce(o.start_ts, n.start_ts)) AS duration";
    case "pageviews":
      return `${PV}::INTEGER AS pageviews`;
    case "events":
      return `${CUSTOM_EVENTS}::INTEGER AS events`;
    case "bounce":
      return `(${PV} = 1 AND ${CUSTOM_EVENTS} = 0) AS bounce`;
    case "engaged_ms":
      return "coalesce(o.engaged_ms, 0) + n.engaged_ms AS engaged_ms";
    case "entry_page":
      return "CASE WHEN coalesce(o.pageviews, 0) > 0 THEN o.entry_page ELSE n.entry_page END AS entry_page";
    case "exit_page":
      return "CASE WHEN n.pageviews > 0 THEN n.exit_page ELSE coalesce(o.exit_page, n.exit_page) END AS exit_page";
    default:
      throw new Error(`no merge rule for sessions.${c}`);
  }
}
const MERGED_SESSION = Object.keys(SESSION_COLUMNS).map(mergedSessionColumn).join(", ");
/** What the merge reads of a stored row (not prev_*: the visit has no previous one). */
const STORED_COLUMNS = {
  sessions: [
    "property",
    "skey",
    "start_ts",
    "pageviews",
    "events",
    "engaged_ms",
    "entry_page",
    "exit_page",
    ...SESSION_ATTRIBUTE_COLUMNS,
  ].join(", "),
  session_pages: "property, skey, path, pageviews, engaged_ms",
  session_events: "property, skey, name, events, revenue",
};
/** Per property key: the earliest start of a merged visit, and how many were merged. */
export const MERGED_LOWS = "SELECT pkey, epoch_us(min(start_ts)), count(*) FROM _fs GROUP BY pkey";

/**
 * A per-page or per-name rollup's merged rows: stored and new sums added up per key, with the
 * visit's (merged) start, and no previous visit.
 */
function mergedPerKey(stored: string, key: "path" | "name", sums: string, where: string, keep: string): string {
  const [a, b] = key === "path" ? ["pageviews", "engaged_ms"] : ["events", "revenue"];
  return (
    `SELECT s.property, s.pkey, s.skey, s.vkey, s.start_ts, g.${key}, g.${a}::INTEGER AS ${a}, g.${b}, ${EPOCH} AS prev_${key} FROM (` +
    `SELECT property, skey, ${key}, sum(${a}) AS ${a}, sum(${b}) AS ${b} FROM (` +
    `SELECT property, skey, ${key}, ${a}, ${b} FROM ${stored} SEMI JOIN _f USING (property, skey) UNION ALL ` +
    `SELECT e.property, e.skey, e.${key}, ${sums} FROM _fe e WHERE ${where} GROUP BY e.property, e.skey, e.${key}` +
    `) GROUP BY property, skey, ${key}${keep}) g JOIN _fs s USING (property, skey)`
  );
}

/**
 * Merges the visits of `_t` (the step's touched visits, with `_hs`: their visitors' stored visits
 * and each one's end) that qualify, from the events of the step's batches (`inBatches`, a
 * predicate on `events`), and takes them out of `_t` and `_tv` for the full step. Returns, per
 * property key, the earliest visit start it changed (epoch ms).
 */
export async function mergeSingleVisits(w: DuckDBConnection, inBatches: string, upto: string): Promise<Map<bigint, number>> {
  const lows = new Map<bigint, number>();
  await w.run(
    // One touched visit of the visitor, no other stored one, and every new event after it ended.
    "CREATE OR REPLACE TEMP TABLE _f AS SELECT t.property, t.pkey, t.skey, t.vkey, h.start_ts AS stored_start, h.rolled AS stored_rolled FROM _t t " +
      "SEMI JOIN (SELECT pkey, vkey FROM _t GROUP BY pkey, vkey HAVING count(*) = 1) USING (pkey, vkey) " +
      "LEFT JOIN (SELECT property, vkey, count(*) AS n, any_value(skey) AS skey, any_value(start_ts) AS start_ts, any_value(end_ts) AS end_ts, any_value(rolled) AS rolled " +
      "FROM _hs GROUP BY property, vkey) h ON h.property = t.property AND h.vkey = t.vkey " +
      "WHERE h.n IS NULL OR (h.n = 1 AND h.skey = t.skey AND h.end_ts < t.min_ts)",
  );
  const [first] = (await w.runAndReadAll("SELECT count(*), epoch_us(min(stored_start)), min(stored_rolled) FROM _f")).getRows();
  if (!first || first[0] === 0n) return lows;
  const [, startUs, rolled] = first;
  // The stored rows of the visits merged (none yet for a new visitor's first visit).
  const stored = storedRows(startUs, rolled);
  const read = (table: keyof typeof STORED_COLUMNS) =>
    `CREATE OR REPLACE TEMP TABLE _f_${table} AS SELECT ${STORED_COLUMNS[table]} FROM ${table} SEMI JOIN _f USING (property, skey) WHERE ${stored()}`;
  await w.run(
    [
      read("sessions"),
      read("session_pages"),
      read("session_events"),
      "DELETE FROM _f USING (SELECT s.property, s.skey FROM _f_sessions s LEFT JOIN " +
        "(SELECT property, skey, sum(engaged_ms) AS engaged_ms FROM _f_session_pages GROUP BY property, skey) p USING (property, skey) " +
        "WHERE s.engaged_ms > coalesce(p.engaged_ms, 0)) x WHERE _f.property = x.property AND _f.skey = x.skey",
      `CREATE OR REPLACE TEMP TABLE _fe AS SELECT ${ROLLUP_EVENT_COLUMNS.join(", ")} FROM events SEMI JOIN _f USING (pkey, skey) WHERE ${inBatches}`,
      `CREATE OR REPLACE TEMP TABLE _fs AS SELECT ${MERGED_SESSION} FROM (${sessionAgg("_fe")}) n ` +
        "LEFT JOIN (SELECT * FROM _f_sessions SEMI JOIN _f USING (property, skey)) o ON o.property = n.property AND o.skey = n.skey",
      `CREATE OR REPLACE TEMP TABLE _fp AS ${mergedPerKey("_f_session_pages", "path", PAGE_SUMS, "e.name IN ('pageview', 'engagement')", " HAVING sum(pageviews) > 0")}`,
      `CREATE OR REPLACE TEMP TABLE _fv AS ${mergedPerKey("_f_session_events", "name", EVENT_SUMS, `e.name NOT IN (${CUSTOM})`, "")}`,
      ...replaceRows("sessions", "_fs", S_ALL, ["property", "skey"], stored("t."), upto),
      ...replaceRows("session_pages", "_fp", P_ALL, ["property", "skey", "path"], stored("t."), upto),
      ...replaceRows("session_events", "_fv", E_ALL, ["property", "skey", "name"], stored("t."), upto),
      // What is left for the full step: the other visits, their visitors and those visitors' visits.
      "DELETE FROM _t USING _f WHERE _t.property = _f.property AND _t.skey = _f.skey",
      "CREATE OR REPLACE TEMP TABLE _tv AS SELECT DISTINCT pkey, vkey FROM _t",
      "DELETE FROM _hs USING _f WHERE _hs.property = _f.property AND _hs.vkey = _f.vkey",
    ].join(";\n"),
  );
  for (const [pkey, us] of (await w.runAndReadAll(MERGED_LOWS)).getRows()) {
    if (typeof pkey === "bigint" && typeof us === "bigint") lows.set(pkey, Math.floor(Number(us) / 1000));
  }
  await w.run(
    ["_f", "_f_sessions", "_f_session_pages", "_f_session_events", "_fe", "_fs", "_fp", "_fv"]
      .map((t) => `DROP TABLE ${t}`)
      .join(";\n"),
  );
  return lows;
}
