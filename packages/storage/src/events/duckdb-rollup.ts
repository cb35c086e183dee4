// The DuckDB rollups (`sessions`, `session_pages`, `session_events`; see @lookout/query tables.ts):
// SQL that rebuilds them from `events`, either wholly (migration) or for the visitors recent
// appends touched (duckdb-rollup-scheduler.ts decides when: right after each append, or batched).
//
// Incremental step, over the batches appended since the last one:
//   1. the visits (and visitors) those batches touch;
//   2. those visitors' history: one scan of a few narrow columns of each rollup;
//   2b. the visits that qualify merged with their stored rows (duckdb-rollup-merge.ts: a visitor's
//      only visit, growing in time order, which is most of them) and left out of what follows;
//   3. the other touched visits recomputed from all their events, read from the earliest touched start
//      on (the ts zone maps turn that into a read of recent row groups only);
//   4. prev_* recomputed for the visitors' rows from that start on (earlier rows cannot change);
//   5. those rows replaced (DELETE by key + INSERT): about as many rows as there were visits in
//      its batches, whatever the visitors' history.
// Each rollup is one statement from its history and the recomputed visits to its final rows
// (CTEs rather than a temporary table per stage): the step's cost is mostly per statement.
// Late or out-of-order events are handled the same way: their visit is recomputed and the
// visitor's prev_* chain re-derived.
import type { DuckDBConnection } from "@duckdb/node-api";
import { rows } from "./duckdb-read.js";
import { mergeSingleVisits } from "./duckdb-rollup-merge.js";
import {
  CUSTOM,
  DIM_COLUMNS,
  E_ALL,
  E_BASE,
  EPOCH,
  EVENT_SUMS,
  P_ALL,
  P_BASE,
  PAGE_SUMS,
  ROLLUP_EVENT_COLUMNS,
  replaceRows,
  S_ALL,
  S_BASE,
  sessionAgg,
  storedRows,
} from "./duckdb-rollup-sql.js";

const lag = (partition: string) =>
  `coalesce(lag(start_ts) OVER (PARTITION BY property, vkey${partition} ORDER BY start_ts, skey), ${EPOCH})`;

function sessionPrev(rows: string): string {
  const prevs = [`${lag("")} AS prev_any`, ...DIM_COLUMNS.map((c) => `${lag(`, ${c}`)} AS prev_${c}`)];
  return `SELECT ${S_BASE}, ${prevs.join(", ")} FROM (${rows})`;
}

function pageAgg(src: string, starts: string): string {
  return (
    `SELECT e.property, any_value(e.pkey) AS pkey, e.skey, any_value(e.vkey) AS vkey, any_value(s.start_ts) AS start_ts, e.path, ${PAGE_SUMS} ` +
    `FROM ${src} e JOIN ${starts} s ON s.property = e.property AND s.skey = e.skey ` +
    `WHERE e.name IN ('pageview', 'engagement') GROUP BY e.property, e.skey, e.path HAVING count_if(e.name = 'pageview') > 0`
  );
}

function eventAgg(src: string, starts: string): string {
  return (
    `SELECT e.property, any_value(e.pkey) AS pkey, e.skey, any_value(e.vkey) AS vkey, any_value(s.start_ts) AS start_ts, e.name, ${EVENT_SUMS} ` +
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
 * Brings the rollups up to date with the batches in (afterBatch, uptoBatch], which must already
 * be in `events` in the current transaction. Returns, per property key, the earliest visit start
 * the step may have changed (epoch ms): rollup rows that start before it are as they were.
 */
export async function rollupBatches(w: DuckDBConnection, afterBatch: bigint, uptoBatch: bigint): Promise<Map<bigint, number>> {
  const after = BigInt.asIntN(64, afterBatch).toString();
  const upto = BigInt.asIntN(64, uptoBatch).toString();
  const inBatches = `batch > ${after} AND batch <= ${upto}`;
  await w.run(
    [
      `CREATE OR REPLACE TEMP TABLE _t AS SELECT property, skey, any_value(pkey) AS pkey, any_value(vkey) AS vkey, min(ts) AS min_ts FROM events WHERE ${inBatches} GROUP BY property, skey`,
      "CREATE OR REPLACE TEMP TABLE _tv AS SELECT DISTINCT pkey, vkey FROM _t",
      // The one full scan of the visits, of the narrow columns prev_* needs. Matched on the
      // integer pkey rather than the property string: the probe side is every row of the table.
      `CREATE OR REPLACE TEMP TABLE _hs AS SELECT ${NARROW_S}, end_ts, rolled FROM sessions SEMI JOIN _tv USING (pkey, vkey)`,
    ].join(";\n"),
  );
  // Most touched visits are merged (duckdb-rollup-merge.ts); the rest are recomputed below.
  const lows = await mergeSingleVisits(w, inBatches, upto);
  let loUs: bigint | null = null;
  const lo = await w.runAndReadAll(
    "SELECT t.pkey, epoch_us(least(min(t.min_ts), min(h.start_ts))) AS lo FROM _t t LEFT JOIN _hs h USING (property, skey) GROUP BY t.pkey",
  );
  for (const [pkey, us] of lo.getRows()) {
    if (typeof pkey !== "bigint" || typeof us !== "bigint") continue;
    const ms = Math.floor(Number(us) / 1000);
    lows.set(pkey, Math.min(ms, lows.get(pkey) ?? ms));
    if (loUs === null || us < loUs) loUs = us;
  }
  if (loUs === null) {
    await w.run(["_t", "_tv", "_hs"].map((t) => `DROP TABLE ${t}`).join(";\n"));
    return lows; // nothing appended, or all of it merged
  }
  // Rows of visits that started before `lo` cannot change: their prev_* only look further back.
  // The rows replaced are those of the visitors' visits from then on, all written since the
  // earliest of those visits was last rolled up.
  const since = `make_timestamp(${loUs.toString()})`;
  const [written] = (await w.runAndReadAll(`SELECT min(rolled) FROM _hs WHERE start_ts >= ${since}`)).getRows();
  const stored = storedRows(loUs, written?.[0]);
  const recent = (table: string) => `SELECT * FROM ${table} SEMI JOIN _tv USING (pkey, vkey) WHERE ${stored()}`;
  /**
   * The touched visitors' rows of a per-page or per-name rollup from `since` on, as they must be:
   * the touched visits' rows recomputed (`fresh`), the others as stored, prev_* by the self-join
   * over every row of those visitors. One statement: each intermediate table cost ~3 ms even
   * when tiny.
   */
  const perKey = (table: string, fresh: string, base: string, key: "path" | "name", prev: string) =>
    `WITH new AS MATERIALIZED (${fresh}), ` +
    `cur AS MATERIALIZED (SELECT ${base} FROM (${recent(table)}) ANTI JOIN _t USING (property, skey) UNION ALL SELECT ${base} FROM new), ` +
    `cand AS (SELECT property, vkey, skey, start_ts, ${key} FROM ${table} SEMI JOIN _tv USING (pkey, vkey) ANTI JOIN _t USING (property, skey) ` +
    `UNION ALL SELECT property, vkey, skey, start_ts, ${key} FROM new), ` +
    `prev AS (${prevJoin("cur", "cand", key, [[prev, ""]])}) ` +
    withPrevs("cur", "prev", base, key, [prev]);
  await w.run(
    [
      `CREATE OR REPLACE TEMP TABLE _ev AS SELECT ${ROLLUP_EVENT_COLUMNS.map((c) => `e.${c}`).join(", ")} FROM events e ` +
        `SEMI JOIN _t USING (pkey, skey) WHERE e.ts >= ${since}`,
      `CREATE OR REPLACE TEMP TABLE _new_s AS ${sessionAgg("_ev")}`,
      // Visits: the same as perKey, with the 21 prev_* of a visit.
      "CREATE OR REPLACE TEMP TABLE _all_s AS " +
        `WITH cur AS MATERIALIZED (SELECT ${S_BASE} FROM (${recent("sessions")}) ANTI JOIN _new_s USING (property, skey) UNION ALL SELECT ${S_BASE} FROM _new_s), ` +
        `cand AS (SELECT ${NARROW_S} FROM _hs ANTI JOIN _new_s USING (property, skey) UNION ALL SELECT ${NARROW_S} FROM _new_s), ` +
        `prev AS (${prevJoin("cur", "cand", "", SESSION_PREVS)}) ` +
        withPrevs(
          "cur",
          "prev",
          S_BASE,
          "",
          SESSION_PREVS.map(([n]) => n),
        ),
      ...replaceRows("sessions", "_all_s", S_ALL, ["property", "skey"], stored("t."), upto),
      `CREATE OR REPLACE TEMP TABLE _all_p AS ${perKey("session_pages", pageAgg("_ev", "_new_s"), P_BASE, "path", "prev_path")}`,
      ...replaceRows("session_pages", "_all_p", P_ALL, ["property", "skey", "path"], stored("t."), upto),
      `CREATE OR REPLACE TEMP TABLE _all_e AS ${perKey("session_events", eventAgg("_ev", "_new_s"), E_BASE, "name", "prev_name")}`,
      ...replaceRows("session_events", "_all_e", E_ALL, ["property", "skey", "name"], stored("t."), upto),
      ...["_t", "_tv", "_hs", "_ev", "_new_s", "_all_s", "_all_p", "_all_e"].map((t) => `DROP TABLE ${t}`),
    ].join(";\n"),
  );
  return lows;
}

/**
 * The last batch of each run of batches after `after` holding at most `chunk` events (or one
 * batch): the steps in which batches appended but never rolled up are caught up on.
 */
export async function pendingBatchGroups(c: DuckDBConnection, after: bigint, chunk: number): Promise<bigint[]> {
  const counts = await rows(
    c,
    "SELECT batch::VARCHAR AS b, count(*) AS n FROM events WHERE batch > $after GROUP BY batch ORDER BY batch",
    { after: after.toString() },
  );
  const ends: bigint[] = [];
  let size = 0;
  counts.forEach((r, i) => {
    size += Number(r.n);
    const next = counts[i + 1];
    if (!next || size + Number(next.n) > chunk) {
      ends.push(BigInt(String(r.b)));
      size = 0;
    }
  });
  return ends;
}
