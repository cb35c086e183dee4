// The DuckDB rollups (`sessions`, `session_pages`, `session_events`; see @lookout/query tables.ts):
// SQL that rebuilds them from `events`, either wholly (migration) or for the visitors recent
// appends touched (duckdb-store.ts decides when: right after each append, or batched).
//
// Incremental step, over the batches appended since the last one:
//   1. the visits (and visitors) those batches touch;
//   2. those visitors' history: one scan of a few narrow columns of sessions;
//   3. visits that only grew at their end (the usual case: a visit in progress) are merged: their
//      rows plus the new events' counts and sums (the comment above candidatesSql says when that is exact);
//   4. the other touched visits (new ones, late or out-of-order events) are recomputed from all
//      their events, read from the earliest such start on (the ts zone maps turn that into a read
//      of recent row groups only), and prev_* re-derived for their visitors' rows from that start
//      on (earlier rows cannot change);
//   5. only rows that differ are replaced (DELETE by key + INSERT), so a rollup rewrites
//      about as many rows as there were visits in its batches, whatever the visitors' history.
import type { DuckDBConnection } from "@duckdb/node-api";
import {
  NO_PREVIOUS_VISIT,
  NON_CUSTOM_EVENT_NAMES,
  SESSION_ATTRIBUTE_COLUMNS,
  SESSION_COLUMNS,
  SESSION_DIMENSION_COLUMNS,
  SESSION_EVENT_COLUMNS,
  SESSION_PAGE_COLUMNS,
} from "@lookout/query";

const CUSTOM = NON_CUSTOM_EVENT_NAMES.map((n) => `'${n}'`).join(", ");
const EPOCH = `TIMESTAMP '${NO_PREVIOUS_VISIT}'`;
const DIM_COLUMNS = Object.values(SESSION_DIMENSION_COLUMNS);

const baseOf = (cols: object) => Object.keys(cols).filter((c) => !c.startsWith("prev_"));
const S_ALL = Object.keys(SESSION_COLUMNS).join(", ");
const S_BASE = baseOf(SESSION_COLUMNS).join(", ");
const P_ALL = Object.keys(SESSION_PAGE_COLUMNS).join(", ");
const P_BASE = baseOf(SESSION_PAGE_COLUMNS).join(", ");
const E_ALL = Object.keys(SESSION_EVENT_COLUMNS).join(", ");
const E_BASE = baseOf(SESSION_EVENT_COLUMNS).join(", ");

/** The event columns the rollups read. */
export const ROLLUP_EVENT_COLUMNS = [
  "property",
  "pkey",
  "skey",
  "vkey",
  "ts",
  "name",
  "path",
  "engaged_ms",
  "revenue",
  ...SESSION_ATTRIBUTE_COLUMNS,
];

const lag = (partition: string) =>
  `coalesce(lag(start_ts) OVER (PARTITION BY property, vkey${partition} ORDER BY start_ts, skey), ${EPOCH})`;

// A visit's attributes are those of its first event. One min() over a struct that starts with ts
// and holds every attribute picks that event whole, ties in the same millisecond broken by value,
// so recomputing a visit always yields the same row (step 5 compares rows); one aggregate instead
// of an arg_min per attribute, about half the cost of this step.
function sessionAgg(src: string): string {
  const first = `min({${["ts", ...SESSION_ATTRIBUTE_COLUMNS].map((c) => `'${c}': ${c}`).join(", ")}})`;
  const attrs = SESSION_ATTRIBUTE_COLUMNS.map((c) => `first.${c} AS ${c}`).join(", ");
  const pv = "count_if(name = 'pageview')";
  const custom = `count_if(name NOT IN (${CUSTOM}))`;
  return (
    `SELECT * EXCLUDE (first), ${attrs} FROM (` +
    `SELECT property, any_value(pkey) AS pkey, skey, any_value(vkey) AS vkey, min(ts) AS start_ts, max(ts) AS end_ts, ` +
    `epoch(max(ts) - min(ts)) AS duration, ${pv}::INTEGER AS pageviews, ${custom}::INTEGER AS events, ` +
    `(${pv} = 1 AND ${custom} = 0) AS bounce, ` +
    `coalesce(sum(engaged_ms) FILTER (WHERE name = 'engagement'), 0)::DOUBLE AS engaged_ms, ` +
    `coalesce(arg_min(path, row(ts, path)) FILTER (WHERE name = 'pageview'), '') AS entry_page, ` +
    `coalesce(arg_max(path, row(ts, path)) FILTER (WHERE name = 'pageview'), '') AS exit_page, ` +
    `${first} AS first FROM ${src} GROUP BY property, skey)`
  );
}

function sessionPrev(rows: string): string {
  const prevs = [`${lag("")} AS prev_any`, ...DIM_COLUMNS.map((c) => `${lag(`, ${c}`)} AS prev_${c}`)];
  return `SELECT ${S_BASE}, ${prevs.join(", ")} FROM (${rows})`;
}

function pageAgg(src: string, starts: string): string {
  return (
    `SELECT e.property, any_value(e.pkey) AS pkey, e.skey, any_value(e.vkey) AS vkey, any_value(s.start_ts) AS start_ts, e.path, ` +
    `count_if(e.name = 'pageview')::INTEGER AS pageviews, ` +
    `coalesce(sum(e.engaged_ms) FILTER (WHERE e.name = 'engagement'), 0)::DOUBLE AS engaged_ms ` +
    `FROM ${src} e JOIN ${starts} s ON s.property = e.property AND s.skey = e.skey ` +
    `WHERE e.name IN ('pageview', 'engagement') GROUP BY e.property, e.skey, e.path HAVING count_if(e.name = 'pageview') > 0`
  );
}

function eventAgg(src: string, starts: string): string {
  return (
    `SELECT e.property, any_value(e.pkey) AS pkey, e.skey, any_value(e.vkey) AS vkey, any_value(s.start_ts) AS start_ts, e.name, ` +
    `count(*)::INTEGER AS events, coalesce(sum(e.revenue), 0)::DOUBLE AS revenue ` +
    `FROM ${src} e JOIN ${starts} s ON s.property = e.property AND s.skey = e.skey ` +
    `WHERE e.name NOT IN (${CUSTOM}) GROUP BY e.property, e.skey, e.name`
  );
}

const pagePrev = (rows: string) => `SELECT ${P_BASE}, ${lag(", path")} AS prev_path FROM (${rows})`;
const eventPrev = (rows: string) => `SELECT ${E_BASE}, ${lag(", name")} AS prev_name FROM (${rows})`;

/**
 * The rollups by their plain definition, prev_* by lag(): one statement, for tests to check both
 * rebuildRollups() and the incremental step against. Too memory hungry for large tables.
 */
export function referenceRollupSql(): string {
  return [
    "DELETE FROM sessions",
    "DELETE FROM session_pages",
    "DELETE FROM session_events",
    `INSERT INTO sessions (${S_ALL}) SELECT ${S_ALL} FROM (${sessionPrev(sessionAgg("events"))}) ORDER BY start_ts`,
    `INSERT INTO session_pages (${P_ALL}) SELECT ${P_ALL} FROM (${pagePrev(pageAgg("events", "sessions"))}) ORDER BY start_ts`,
    `INSERT INTO session_events (${E_ALL}) SELECT ${E_ALL} FROM (${eventPrev(eventAgg("events", "sessions"))}) ORDER BY start_ts`,
  ].join(";\n");
}

/** Events per chunk of a rebuild: bounds the aggregation state (~400 MB per million events). */
export const REBUILD_CHUNK_EVENTS = 1_000_000;

/**
 * Rebuilds every rollup from `events` (migrations, a rollup schema change, a bulk import) on `c`,
 * outside any transaction: it commits as it goes. Visitors are split into chunks by key, each
 * computed on its own: every row and every prev_* depends on one visitor's events only, and a
 * single pass over 10M events needs more than the 1 GB memory limit (the per-visit arg_min
 * states do not spill). Each chunk's rows are staged in `_rb_*` tables and committed; a
 * transaction holds on to the memory of every table it replaced until it ends, so one
 * transaction over 100 chunks (100M events) ran out of memory. The staged rows then replace the
 * rollups in one transaction, a time slice at a time and ordered by start_ts so that zone maps
 * serve date ranges; `finish` runs inside that transaction, so the caller's bookkeeping commits
 * with the new rollups. Readers see the old rollups until then.
 */
export interface RebuildOptions {
  /** Events per chunk (default 1 000 000). */
  chunkEvents?: number;
  /** Called after each step with its duration. */
  trace?: (step: string, ms: number) => void;
  /** Runs in the transaction that swaps the rollups in. */
  finish?: () => Promise<void>;
}

/** Runs `fn` in a transaction on `c`: committed when it resolves, rolled back when it throws. */
export async function transaction(c: DuckDBConnection, fn: () => Promise<void>): Promise<void> {
  await c.run("BEGIN TRANSACTION");
  try {
    await fn();
    await c.run("COMMIT");
  } catch (err) {
    await c.run("ROLLBACK").catch(() => undefined);
    throw err;
  }
}

const STAGED = ["_rb_s", "_rb_p", "_rb_e"];
const PER_CHUNK = ["_rb_ev", "_rb_agg", "_rb_prev", "_rb_cs"];

export async function rebuildRollups(c: DuckDBConnection, o: RebuildOptions = {}): Promise<void> {
  const trace = o.trace;
  const step = async (name: string, sql: string) => {
    const t = performance.now();
    await c.run(sql);
    trace?.(name, performance.now() - t);
  };
  const inTransaction = (fn: () => Promise<void>) => transaction(c, fn);
  const r = await c.runAndReadAll("SELECT count(*)::BIGINT AS n FROM events");
  const n = Number(r.getRows()[0]?.[0] ?? 0);
  const chunks = Math.max(1, Math.ceil(n / Math.max(1, o.chunkEvents ?? REBUILD_CHUNK_EVENTS)));
  const cols = ROLLUP_EVENT_COLUMNS.join(", ");
  const drop = (tables: string[]) => tables.map((t) => `DROP TABLE IF EXISTS ${t}`).join(";\n");
  await step(
    "stage",
    [
      // Left over by an interrupted rebuild, if any.
      drop([...STAGED, ...PER_CHUNK]),
      `CREATE TABLE _rb_s AS SELECT ${S_ALL} FROM sessions LIMIT 0`,
      `CREATE TABLE _rb_p AS SELECT ${P_ALL} FROM session_pages LIMIT 0`,
      `CREATE TABLE _rb_e AS SELECT ${E_ALL} FROM session_events LIMIT 0`,
    ].join(";\n"),
  );
  for (let i = 0; i < chunks; i++) {
    const inChunk = chunks === 1 ? "true" : `((vkey % ${chunks}) + ${chunks}) % ${chunks} = ${i}`;
    await inTransaction(async () => {
      await step("events", `CREATE OR REPLACE TEMP TABLE _rb_ev AS SELECT ${cols} FROM events WHERE ${inChunk}`);
      // prev_* by the self-join (see prevJoin): one pass for all 21 of them, where lag() needs a
      // sort per partitioning (measured 10x slower here).
      await step("sessions", `CREATE OR REPLACE TEMP TABLE _rb_agg AS ${sessionAgg("_rb_ev")}`);
      await step(
        "session prevs",
        `CREATE OR REPLACE TEMP TABLE _rb_prev AS ${prevJoin("_rb_agg", "_rb_agg", "", SESSION_PREVS)}`,
      );
      const names = SESSION_PREVS.map(([n]) => n);
      await step(
        "sessions + prevs",
        `CREATE OR REPLACE TEMP TABLE _rb_cs AS ${withPrevs("_rb_agg", "_rb_prev", S_BASE, "", names)}`,
      );
      await step("sessions copy", `INSERT INTO _rb_s (${S_ALL}) SELECT ${S_ALL} FROM _rb_cs`);
      await step("pages", `INSERT INTO _rb_p (${P_ALL}) SELECT ${P_ALL} FROM (${pagePrev(pageAgg("_rb_ev", "_rb_cs"))})`);
      await step(
        "custom events",
        `INSERT INTO _rb_e (${E_ALL}) SELECT ${E_ALL} FROM (${eventPrev(eventAgg("_rb_ev", "_rb_cs"))})`,
      );
      await step("drop chunk", drop(PER_CHUNK));
    });
  }
  await inTransaction(async () => {
    await step("clear", ["DELETE FROM sessions", "DELETE FROM session_pages", "DELETE FROM session_events"].join(";\n"));
    // One sort of every visit at once would need memory in proportion to the whole table.
    const span = (await c.runAndReadAll("SELECT epoch_us(min(start_ts)), epoch_us(max(start_ts)) FROM _rb_s")).getRows()[0];
    const [lo, hi] = [Number(span?.[0] ?? 0), Number(span?.[1] ?? 0) + 1];
    const slices = Math.max(1, Math.ceil(chunks / 4));
    for (let i = 0; i < slices; i++) {
      const from = lo + Math.floor(((hi - lo) * i) / slices);
      const to = i === slices - 1 ? hi : lo + Math.floor(((hi - lo) * (i + 1)) / slices);
      const slice = `start_ts >= make_timestamp(${from}) AND start_ts < make_timestamp(${to}) ORDER BY start_ts`;
      await step("write sessions", `INSERT INTO sessions (${S_ALL}) SELECT ${S_ALL} FROM _rb_s WHERE ${slice}`);
      await step("write pages", `INSERT INTO session_pages (${P_ALL}) SELECT ${P_ALL} FROM _rb_p WHERE ${slice}`);
      await step("write custom events", `INSERT INTO session_events (${E_ALL}) SELECT ${E_ALL} FROM _rb_e WHERE ${slice}`);
    }
    await step("drop", drop(STAGED));
    await o.finish?.();
  });
}

/**
 * Replaces the changed rows of one rollup: `all` holds the touched visitors' rows as they must be,
 * `old` as they are (all of them start at or after `since`). Rows are deleted by key, never by a
 * rowid read earlier in the transaction: a checkpoint running meanwhile on the writer connection
 * may vacuum the table and move rowids, and deleting by stale rowids left duplicate visits behind
 * (54 of 2.4M after loading 10M events; reproduced with appends racing checkpoints).
 */
function replaceChanged(table: string, old: string, all: string, cols: string, key: string[], since: string): string[] {
  const on = key.map((k) => `t.${k} = c.${k}`).join(" AND ");
  return [
    `CREATE OR REPLACE TEMP TABLE _chg AS SELECT ${cols} FROM ${all} EXCEPT SELECT ${cols} FROM ${old}`,
    `DELETE FROM ${table} t USING _chg c WHERE ${on} AND t.start_ts >= ${since}`,
    `INSERT INTO ${table} (${cols}) SELECT ${cols} FROM _chg ORDER BY start_ts`,
  ];
}

/** "b is an earlier visit than a": start, then key, so that ties order the same way as lag(). */
const EARLIER = "(b.start_ts < a.start_ts OR (b.start_ts = a.start_ts AND b.skey < a.skey))";

/**
 * prev_* by a self-join of the touched visitors' rows (`cur`: the rows to compute, `cand`: every
 * row of those visitors). An equi-join plus max(CASE) — window functions cost ~10 ms each here
 * even on a few thousand rows, and a LEFT JOIN with this OR condition becomes a nested loop.
 */
function prevJoin(cur: string, cand: string, extraKey: string, prevs: [string, string][]): string {
  const on = ["property", "vkey", ...(extraKey ? [extraKey] : [])].map((c) => `b.${c} = a.${c}`).join(" AND ");
  const cols = prevs.map(([name, cond]) => `max(${cond ? `CASE WHEN ${cond} THEN b.start_ts END` : "b.start_ts"}) AS ${name}`);
  const group = ["a.property", "a.skey", ...(extraKey ? [`a.${extraKey}`] : [])].join(", ");
  return `SELECT ${group}, ${cols.join(", ")} FROM ${cur} a JOIN ${cand} b ON ${on} WHERE ${EARLIER} GROUP BY ${group}`;
}

function withPrevs(cur: string, prev: string, base: string, extraKey: string, names: string[]): string {
  const on = ["property", "skey", ...(extraKey ? [extraKey] : [])].map((c) => `p.${c} = c.${c}`).join(" AND ");
  const cols = base.split(", ").map((c) => `c.${c}`);
  const prevs = names.map((n) => `coalesce(p.${n}, ${EPOCH}) AS ${n}`);
  return `SELECT ${[...cols, ...prevs].join(", ")} FROM ${cur} c LEFT JOIN ${prev} p ON ${on}`;
}

const SESSION_PREVS: [string, string][] = [
  ["prev_any", ""],
  ...DIM_COLUMNS.map((c): [string, string] => [`prev_${c}`, `b.${c} = a.${c}`]),
];
const NARROW_S = ["property", "vkey", "skey", "start_ts", ...DIM_COLUMNS].join(", ");

/**
 * Visits that only grew at their end since the last step, to be merged rather than recomputed:
 * the visitor's only touched visit, already stored, their latest, every new event after its last
 * stored one, and no engagement outside its page rows (a ping for a page before that page's
 * pageview has no row to live in; only a recompute from events places it). Then the merged row is
 * the row a recompute would give: the start, the first event's attributes and their prev_* stay,
 * counts and sums add up, the exit page is the last new pageview if any (and its prev_* follows).
 * Under load nearly every touched visit is one of these, and merging reads only the new events,
 * where a recompute reads every event since the earliest touched visit began (a visit with
 * engagement pings can last an hour).
 */
function candidatesSql(): string[] {
  return [
    "CREATE OR REPLACE TEMP TABLE _tn AS SELECT pkey, vkey, count(*) AS n FROM _ta GROUP BY pkey, vkey",
    "CREATE OR REPLACE TEMP TABLE _hl AS SELECT pkey, vkey, arg_max(skey, row(start_ts, skey)) AS skey FROM _hsa GROUP BY pkey, vkey",
    "CREATE OR REPLACE TEMP TABLE _fc AS SELECT t.property, t.skey, t.pkey, t.vkey FROM _ta t " +
      "JOIN _hsa h USING (property, skey) JOIN _tn c ON c.pkey = t.pkey AND c.vkey = t.vkey " +
      "JOIN _hl l ON l.pkey = t.pkey AND l.vkey = t.vkey AND l.skey = t.skey WHERE c.n = 1 AND t.min_ts > h.end_ts",
  ];
}

/**
 * Reads the candidates' rows and keeps those with no stray engagement in `_f`; the rest of the
 * touched visits go to `_t`. `from`: the earliest candidate start, so that the zone maps of the
 * rollups (in start order) leave the reads to recent row groups.
 */
function splitSql(from: string): string[] {
  return [
    `CREATE OR REPLACE TEMP TABLE _fo AS SELECT ${S_ALL} FROM sessions SEMI JOIN _fc USING (pkey, skey) WHERE start_ts >= ${from}`,
    `CREATE OR REPLACE TEMP TABLE _fop AS SELECT ${P_ALL} FROM session_pages SEMI JOIN _fc USING (pkey, skey) WHERE start_ts >= ${from}`,
    "CREATE OR REPLACE TEMP TABLE _f AS SELECT c.* FROM _fc c JOIN _fo o USING (property, skey) " +
      "LEFT JOIN (SELECT property, skey, sum(engaged_ms) AS e FROM _fop GROUP BY property, skey) p USING (property, skey) " +
      "WHERE o.engaged_ms = coalesce(p.e, 0)",
    // The rest is recomputed from events.
    "CREATE OR REPLACE TEMP TABLE _t AS SELECT * FROM _ta ANTI JOIN _f USING (property, skey)",
    "CREATE OR REPLACE TEMP TABLE _tv AS SELECT DISTINCT pkey, vkey FROM _t",
    `CREATE OR REPLACE TEMP TABLE _hs AS SELECT ${NARROW_S} FROM _hsa SEMI JOIN _tv USING (pkey, vkey)`,
  ];
}

/**
 * Merges the new events of the visits in `_f` into the rows of a per-visit-and-`key` rollup: the
 * `sums` of the new events (column, expression) add to the rows in `old`; a key the visit had no
 * row for gets one (when `keep`), with prev_<key> from the visitor's other visits, all earlier.
 */
/** The touched visitors' rows of each keyed rollup as the step found them (rollupStep reads them). */
const HISTORY = { session_pages: "_hpa", session_events: "_hea" } as const;

function mergeKeyedSql(o: {
  table: "session_pages" | "session_events";
  key: "path" | "name";
  old: string;
  where: string;
  sums: [string, string][];
  keep: string;
  since: string;
}): string[] {
  const cols = o.table === "session_pages" ? P_ALL : E_ALL;
  const base = o.table === "session_pages" ? P_BASE : E_BASE;
  const t = `_m_${o.key}`;
  const prev = `prev_${o.key}`;
  const on = ["property", "skey", o.key].map((k) => `t.${k} = c.${k}`).join(" AND ");
  return [
    `CREATE OR REPLACE TEMP TABLE ${t}_new AS SELECT property, skey, ${o.key}, ${o.sums.map(([c, e]) => `${e} AS ${c}`).join(", ")} ` +
      `FROM _fe WHERE ${o.where} GROUP BY property, skey, ${o.key}`,
    `CREATE OR REPLACE TEMP TABLE ${t}_old AS SELECT * FROM ${o.old} SEMI JOIN ${t}_new USING (property, skey, ${o.key})`,
    `CREATE OR REPLACE TEMP TABLE ${t}_sum AS SELECT o.* REPLACE (${o.sums.map(([c]) => `o.${c} + n.${c} AS ${c}`).join(", ")}) ` +
      `FROM ${t}_old o JOIN ${t}_new n USING (property, skey, ${o.key})`,
    `CREATE OR REPLACE TEMP TABLE ${t}_add AS SELECT n.property, s.pkey, n.skey, s.vkey, s.start_ts, n.${o.key}, ` +
      `${o.sums.map(([c]) => `n.${c}`).join(", ")} FROM ${t}_new n JOIN _fo s USING (property, skey) ` +
      `ANTI JOIN ${t}_old o USING (property, skey, ${o.key}) WHERE ${o.keep}`,
    `CREATE OR REPLACE TEMP TABLE ${t}_hist AS SELECT property, vkey, skey, start_ts, ${o.key} FROM ${HISTORY[o.table]} ` +
      `SEMI JOIN (SELECT DISTINCT pkey, vkey FROM ${t}_add) v USING (pkey, vkey)`,
    `CREATE OR REPLACE TEMP TABLE _prev AS ${prevJoin(`${t}_add`, `${t}_hist`, o.key, [[prev, ""]])}`,
    `CREATE OR REPLACE TEMP TABLE ${t}_add AS ${withPrevs(`${t}_add`, "_prev", base, o.key, [prev])}`,
    `DELETE FROM ${o.table} t USING ${t}_sum c WHERE ${on} AND t.start_ts >= ${o.since}`,
    `INSERT INTO ${o.table} (${cols}) SELECT ${cols} FROM (SELECT ${cols} FROM ${t}_sum UNION ALL SELECT ${cols} FROM ${t}_add) ORDER BY start_ts`,
  ];
}

/** Merges the new events of the visits in `_f` (see candidatesSql) into their rows. */
function mergeSql(after: string, upto: string, since: string): string[] {
  return [
    `CREATE OR REPLACE TEMP TABLE _fe AS SELECT ${ROLLUP_EVENT_COLUMNS.join(", ")} FROM events ` +
      `SEMI JOIN _f USING (pkey, skey) WHERE batch > ${after} AND batch <= ${upto}`,
    // Visits.
    "CREATE OR REPLACE TEMP TABLE _fn AS SELECT property, skey, max(ts) AS end_ts, " +
      `count_if(name = 'pageview') AS pv, count_if(name NOT IN (${CUSTOM})) AS ev, ` +
      "coalesce(sum(engaged_ms) FILTER (WHERE name = 'engagement'), 0) AS eng, " +
      "arg_min(path, row(ts, path)) FILTER (WHERE name = 'pageview') AS first_pv, " +
      "arg_max(path, row(ts, path)) FILTER (WHERE name = 'pageview') AS last_pv FROM _fe GROUP BY property, skey",
    "CREATE OR REPLACE TEMP TABLE _fs AS SELECT o.* REPLACE (" +
      "n.end_ts AS end_ts, epoch(n.end_ts - o.start_ts) AS duration, (o.pageviews + n.pv)::INTEGER AS pageviews, " +
      "(o.events + n.ev)::INTEGER AS events, (o.pageviews + n.pv = 1 AND o.events + n.ev = 0) AS bounce, " +
      "o.engaged_ms + n.eng AS engaged_ms, " +
      "CASE WHEN o.pageviews = 0 THEN coalesce(n.first_pv, '') ELSE o.entry_page END AS entry_page, " +
      "CASE WHEN n.pv > 0 THEN n.last_pv ELSE o.exit_page END AS exit_page) " +
      "FROM _fo o JOIN _fn n USING (property, skey)",
    // The entry and exit pages are dimensions too: their prev_* follow the (possibly new) value.
    // Every other visit of the visitor is earlier (the merged one is their latest).
    `CREATE OR REPLACE TEMP TABLE _fs AS SELECT f.* REPLACE (${["entry_page", "exit_page"]
      .map(
        (d) =>
          `coalesce((SELECT max(b.start_ts) FROM _hsa b WHERE b.pkey = f.pkey AND b.vkey = f.vkey AND b.skey <> f.skey AND b.${d} = f.${d}), ${EPOCH}) AS prev_${d}`,
      )
      .join(", ")}) FROM _fs f`,
    `DELETE FROM sessions t USING _fs c WHERE t.property = c.property AND t.skey = c.skey AND t.start_ts >= ${since}`,
    `INSERT INTO sessions (${S_ALL}) SELECT ${S_ALL} FROM _fs ORDER BY start_ts`,
    // Pages, and custom events: rows that exist add up; a path first viewed or an event first
    // sent in this visit gets its row and prev_*.
    ...mergeKeyedSql({
      table: "session_pages",
      key: "path",
      old: "_fop",
      where: "name IN ('pageview', 'engagement')",
      sums: [
        ["pageviews", "count_if(name = 'pageview')::INTEGER"],
        ["engaged_ms", "coalesce(sum(engaged_ms) FILTER (WHERE name = 'engagement'), 0)::DOUBLE"],
      ],
      // pageAgg's HAVING: engagement alone makes no page row.
      keep: "n.pageviews > 0",
      since,
    }),
    ...mergeKeyedSql({
      table: "session_events",
      key: "name",
      old: `(SELECT ${E_ALL} FROM session_events SEMI JOIN _f USING (pkey, skey) WHERE start_ts >= ${since})`,
      where: `name NOT IN (${CUSTOM})`,
      sums: [
        ["events", "count(*)::INTEGER"],
        ["revenue", "coalesce(sum(revenue), 0)::DOUBLE"],
      ],
      keep: "true",
      since,
    }),
  ];
}

/**
 * Brings the rollups up to date with the batches in (afterBatch, uptoBatch], which must already
 * be in `events` in the current transaction. Returns, per property key, the earliest visit start
 * the step may have changed (epoch ms): rollup rows that start before it are as they were.
 */
export async function rollupBatches(w: DuckDBConnection, afterBatch: bigint, uptoBatch: bigint): Promise<Map<bigint, number>> {
  const { lows, visits } = await rollupStep(w, afterBatch, uptoBatch);
  // The step's scratch tables are replaced by the next step; only a big one's are worth freeing now.
  if (visits > 10_000) for (const t of SCRATCH) await w.run(`DROP TABLE IF EXISTS ${t}`);
  return lows;
}

const SCRATCH = [
  ...["_ta", "_tva", "_hsa", "_hpa", "_hea", "_tn", "_hl", "_fc", "_fo", "_fop", "_f", "_t", "_tv", "_hs", "_prev", "_chg"],
  ...["_fe", "_fn", "_fs"],
  ...["path", "name"].flatMap((k) => ["new", "old", "sum", "add", "hist"].map((x) => `_m_${k}_${x}`)),
  ...["_ev", "_new_s", "_old_s", "_cur_s", "_cand_s", "_all_s", "_hp", "_new_p", "_old_p", "_cur_p", "_cand_p", "_all_p"],
  ...["_he", "_new_e", "_old_e", "_cur_e", "_cand_e", "_all_e"],
];

async function rollupStep(
  w: DuckDBConnection,
  afterBatch: bigint,
  uptoBatch: bigint,
): Promise<{ lows: Map<bigint, number>; visits: number }> {
  const after = BigInt.asIntN(64, afterBatch).toString();
  const upto = BigInt.asIntN(64, uptoBatch).toString();
  await w.run(
    [
      `CREATE OR REPLACE TEMP TABLE _ta AS SELECT property, skey, any_value(pkey) AS pkey, any_value(vkey) AS vkey, min(ts) AS min_ts FROM events WHERE batch > ${after} AND batch <= ${upto} GROUP BY property, skey`,
      "CREATE OR REPLACE TEMP TABLE _tva AS SELECT DISTINCT pkey, vkey FROM _ta",
      // The one full scan per rollup and table, of the narrow columns prev_* needs. Matched on the
      // integer pkey rather than the property string: the probe side is every row of the table.
      `CREATE OR REPLACE TEMP TABLE _hsa AS SELECT pkey, ${NARROW_S}, end_ts FROM sessions SEMI JOIN _tva USING (pkey, vkey)`,
      // Likewise for the other two rollups' prev_path and prev_name, merged and recomputed visits alike.
      `CREATE OR REPLACE TEMP TABLE _hpa AS SELECT pkey, property, vkey, skey, start_ts, path FROM session_pages SEMI JOIN _tva USING (pkey, vkey)`,
      `CREATE OR REPLACE TEMP TABLE _hea AS SELECT pkey, property, vkey, skey, start_ts, name FROM session_events SEMI JOIN _tva USING (pkey, vkey)`,
    ].join(";\n"),
  );
  const lows = new Map<bigint, number>();
  const lo = await w.runAndReadAll(
    "SELECT t.pkey, epoch_us(least(min(t.min_ts), min(h.start_ts))) AS lo FROM _ta t LEFT JOIN _hsa h USING (property, skey) GROUP BY t.pkey",
  );
  for (const [pkey, us] of lo.getRows()) {
    if (typeof pkey !== "bigint" || typeof us !== "bigint") continue;
    lows.set(pkey, Math.floor(Number(us) / 1000));
  }
  if (lows.size === 0) return { lows, visits: 0 }; // nothing appended
  await w.run(candidatesSql().join(";\n"));
  const first = await w.runAndReadAll("SELECT epoch_us(min(h.start_ts)) FROM _hsa h SEMI JOIN _fc USING (property, skey)");
  const firstUs = first.getRows()[0]?.[0];
  const from = typeof firstUs === "bigint" ? `make_timestamp(${firstUs.toString()})` : "TIMESTAMP 'infinity'";
  await w.run(splitSql(from).join(";\n"));
  const counts = await w.runAndReadAll("SELECT (SELECT count(*) FROM _f), (SELECT count(*) FROM _t)");
  const [merged, recomputed] = (counts.getRows()[0] ?? [0n, 0n]).map(Number) as [number, number];
  const done = { lows, visits: merged + recomputed };
  if (merged > 0) await w.run(mergeSql(after, upto, from).join(";\n"));
  if (recomputed === 0) return done;
  const slow = await w.runAndReadAll(
    "SELECT epoch_us(least(min(t.min_ts), min(h.start_ts))) FROM _t t LEFT JOIN _hs h USING (property, skey)",
  );
  const loUs = slow.getRows()[0]?.[0];
  if (typeof loUs !== "bigint") return done;
  // Rows of visits that started before `since` cannot change: their prev_* only look further back.
  const since = `make_timestamp(${loUs.toString()})`;
  const recent = (table: string, alias: string) =>
    `SELECT ${alias}.* FROM ${table} ${alias} SEMI JOIN _tv USING (pkey, vkey) WHERE ${alias}.start_ts >= ${since}`;
  await w.run(
    [
      `CREATE OR REPLACE TEMP TABLE _ev AS SELECT ${ROLLUP_EVENT_COLUMNS.map((c) => `e.${c}`).join(", ")} FROM events e ` +
        `SEMI JOIN _t USING (pkey, skey) WHERE e.ts >= ${since}`,
      `CREATE OR REPLACE TEMP TABLE _new_s AS ${sessionAgg("_ev")}`,
      `CREATE OR REPLACE TEMP TABLE _old_s AS ${recent("sessions", "s")}`,
      `CREATE OR REPLACE TEMP TABLE _cur_s AS SELECT ${S_BASE} FROM _old_s ANTI JOIN _new_s USING (property, skey) UNION ALL SELECT ${S_BASE} FROM _new_s`,
      `CREATE OR REPLACE TEMP TABLE _cand_s AS SELECT ${NARROW_S} FROM _hs ANTI JOIN _new_s USING (property, skey) UNION ALL SELECT ${NARROW_S} FROM _new_s`,
      `CREATE OR REPLACE TEMP TABLE _prev AS ${prevJoin("_cur_s", "_cand_s", "", SESSION_PREVS)}`,
      `CREATE OR REPLACE TEMP TABLE _all_s AS ${withPrevs(
        "_cur_s",
        "_prev",
        S_BASE,
        "",
        SESSION_PREVS.map(([n]) => n),
      )}`,
      ...replaceChanged("sessions", "_old_s", "_all_s", S_ALL, ["property", "skey"], since),
      // Pages: the same with prev_path.
      "CREATE OR REPLACE TEMP TABLE _hp AS SELECT property, vkey, skey, start_ts, path FROM _hpa SEMI JOIN _tv USING (pkey, vkey)",
      `CREATE OR REPLACE TEMP TABLE _new_p AS ${pageAgg("_ev", "_new_s")}`,
      `CREATE OR REPLACE TEMP TABLE _old_p AS ${recent("session_pages", "p")}`,
      `CREATE OR REPLACE TEMP TABLE _cur_p AS SELECT ${P_BASE} FROM _old_p ANTI JOIN _t USING (property, skey) UNION ALL SELECT ${P_BASE} FROM _new_p`,
      "CREATE OR REPLACE TEMP TABLE _cand_p AS SELECT property, vkey, skey, start_ts, path FROM _hp ANTI JOIN _t USING (property, skey) " +
        "UNION ALL SELECT property, vkey, skey, start_ts, path FROM _new_p",
      `CREATE OR REPLACE TEMP TABLE _prev AS ${prevJoin("_cur_p", "_cand_p", "path", [["prev_path", ""]])}`,
      `CREATE OR REPLACE TEMP TABLE _all_p AS ${withPrevs("_cur_p", "_prev", P_BASE, "path", ["prev_path"])}`,
      ...replaceChanged("session_pages", "_old_p", "_all_p", P_ALL, ["property", "skey", "path"], since),
      // Custom events: the same with prev_name.
      "CREATE OR REPLACE TEMP TABLE _he AS SELECT property, vkey, skey, start_ts, name FROM _hea SEMI JOIN _tv USING (pkey, vkey)",
      `CREATE OR REPLACE TEMP TABLE _new_e AS ${eventAgg("_ev", "_new_s")}`,
      `CREATE OR REPLACE TEMP TABLE _old_e AS ${recent("session_events", "x")}`,
      `CREATE OR REPLACE TEMP TABLE _cur_e AS SELECT ${E_BASE} FROM _old_e ANTI JOIN _t USING (property, skey) UNION ALL SELECT ${E_BASE} FROM _new_e`,
      "CREATE OR REPLACE TEMP TABLE _cand_e AS SELECT property, vkey, skey, start_ts, name FROM _he ANTI JOIN _t USING (property, skey) " +
        "UNION ALL SELECT property, vkey, skey, start_ts, name FROM _new_e",
      `CREATE OR REPLACE TEMP TABLE _prev AS ${prevJoin("_cur_e", "_cand_e", "name", [["prev_name", ""]])}`,
      `CREATE OR REPLACE TEMP TABLE _all_e AS ${withPrevs("_cur_e", "_prev", E_BASE, "name", ["prev_name"])}`,
      ...replaceChanged("session_events", "_old_e", "_all_e", E_ALL, ["property", "skey", "name"], since),
    ].join(";\n"),
  );
  return done;
}
