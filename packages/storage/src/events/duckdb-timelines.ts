// The DuckDB store's visitor timelines (timelines.ts keeps them; @lookout/query timeline.ts: the
// layout): how DuckDB reads a base and its fresh part. Exact, because nothing is left out or
// counted twice:
// - The base holds every event of the batches up to B (batch numbers only grow, and every batch up
//   to B had committed when B was read, so no later row has a batch <= B). Each query reads the
//   rows of later batches (the fresh part) from DuckDB, which the batch column's zone maps narrow
//   to the newest row groups; those are kept, so the next one reads only the batches since.
// - Rows only leave the events table by a deletion (a visitor, a property): the store calls
//   forget(), which drops the property's timeline (and a build that was running).
// Filters are decided by DuckDB itself, over each distinct page once (the same condition the SQL
// path prints), so both paths agree on case folding and regular expressions. A large base is read
// in slices of the visitor keys' range, so that DuckDB sorts a slice at a time within its memory
// limit, on a connection of its own.
import type { DuckDBConnection } from "@duckdb/node-api";
import {
  type CompileContext,
  type CompiledQuery,
  compileFunnelClientIds,
  indexTimeline,
  T_HI,
  TIMELINE_MAX_SPAN_MS,
  timelinePagesSql,
} from "@lookout/query";
import type { FunnelSpec } from "@lookout/schema";
import type { ReaderPool } from "./duckdb-read.js";
import { plainRows } from "./duckdb-rows.js";
import {
  Dictionary,
  emptyFresh,
  encoded,
  type Fresh,
  mergeRuns,
  keySlices,
  PairDictionary,
  TimelineWriter,
} from "./timeline-columns.js";
import { TIMELINE_DEFAULTS, type TimelineOptions, type TimelineSource, Timelines } from "./timelines.js";

export interface TimelineDeps {
  /** A connection of the timelines' own (builds run there). */
  connection: DuckDBConnection;
  readers: ReaderPool;
  /** The last batch committed, read once every earlier write has finished (the write queue). */
  committedBatch: () => Promise<bigint>;
  pkeyOf: (property: string) => bigint | undefined;
  /** The time limit of the timelines' reads (the store's own). */
  timeoutMs: number;
  /** The store's query() (binds the property's key). */
  query: <T>(q: CompiledQuery) => Promise<T[]>;
}

/** What a DuckDB base holds: the batches up to its fresh part's `through`, those after `base` in `fresh`. */
interface DuckState {
  fresh: Fresh;
}

/** The DuckDB store's timelines. */
export function duckDbTimelines(deps: TimelineDeps, opts: TimelineOptions = {}): Timelines<DuckState> {
  const o = { ...TIMELINE_DEFAULTS, ...opts };
  const source: TimelineSource<DuckState> = {
    interrupt: () => deps.connection.interrupt(),

    async load(property, fits) {
      const pkey = deps.pkeyOf(property);
      if (pkey === undefined) return null;
      const through = await deps.committedBatch();
      const c = deps.connection;
      const p = { k: pkey, b: through };
      const scope = "pkey = $k AND batch <= $b";
      await c.run("BEGIN TRANSACTION");
      try {
        const counted = plainRows(
          await c.run(
            `SELECT count(*) AS n, min(epoch_ms(ts)) AS t0, max(epoch_ms(ts)) AS t1, count(DISTINCT vkey) AS v FROM events WHERE ${scope}`,
            p,
          ),
        );
        const n = Number(counted[0]?.n ?? 0);
        const t0 = n === 0 ? 0n : BigInt(counted[0]?.t0 as bigint);
        if (n > 0 && Number(BigInt(counted[0]?.t1 as bigint) - t0) >= TIMELINE_MAX_SPAN_MS) return null;
        if (!fits(n)) return null;
        // Dictionaries numbered by DuckDB, so the main read carries integers, not strings.
        const dict = async (table: string, column: string) => {
          await c.run(
            `CREATE OR REPLACE TEMP TABLE ${table} AS SELECT v, (row_number() OVER (ORDER BY v) - 1)::INTEGER AS id ` +
              `FROM (SELECT DISTINCT ${column} AS v FROM events WHERE ${scope})`,
            p,
          );
          const values: string[] = [];
          for (const r of plainRows(await c.run(`SELECT v, id FROM ${table}`))) values[Number(r.id)] = String(r.v);
          return new Dictionary(values);
        };
        const names = await dict("timeline_names", "name");
        const pages = await dict("timeline_pages", "path");
        await c.run(
          "CREATE OR REPLACE TEMP TABLE timeline_pairs AS SELECT d.name, d.path, n.id AS nid, g.id AS pid, " +
            "(row_number() OVER (ORDER BY n.id, g.id) - 1)::INTEGER AS id " +
            `FROM (SELECT DISTINCT name, path FROM events WHERE ${scope}) d ` +
            "JOIN timeline_names n ON n.v = d.name JOIN timeline_pages g ON g.v = d.path",
          p,
        );
        const pairs = new PairDictionary();
        for (const r of plainRows(await c.run("SELECT nid, pid FROM timeline_pairs ORDER BY id"))) {
          pairs.id(Number(r.nid), Number(r.pid));
        }
        // The visitors' lists sized by their count: grown by doubling, at 15M visitors they briefly
        // held 300 MB (an estimate by HyperLogLog was 15% short there).
        const writer = new TimelineWriter(n, Number(t0), pairs.size, Number(counted[0]?.v ?? 0));
        for (const [lo, hi] of keySlices(Math.max(1, Math.ceil(n / o.sliceEvents)))) {
          const result = await c.stream(
            `SELECT e.vkey, ((epoch_ms(e.ts) - $t0) // ${T_HI})::UTINYINT AS hi, ((epoch_ms(e.ts) - $t0) % ${T_HI})::UINTEGER AS lo, ` +
              `g.id::${writer.narrowPairs ? "USMALLINT" : "INTEGER"} AS pair FROM events e ` +
              "JOIN timeline_pairs g ON g.name = e.name AND g.path = e.path " +
              `WHERE e.pkey = $k AND e.batch <= $b${lo === null ? "" : " AND e.vkey >= $lo"}${hi === null ? "" : " AND e.vkey < $hi"} ` +
              "ORDER BY e.vkey, e.ts",
            { ...p, t0, ...(lo === null ? {} : { lo }), ...(hi === null ? {} : { hi }) },
          );
          for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
            const [k, h, l, g] = [0, 1, 2, 3].map((i) => chunk.getColumnVector(i));
            writer.chunk(k as never, h as never, l as never, g as never, chunk.rowCount);
          }
        }
        const base = writer.finish();
        if (n <= o.postingsMaxEvents) base.postings = indexTimeline(base, pairs.size);
        return { base, names, pages, pairs, state: { fresh: emptyFresh(through) } };
      } finally {
        await c.run("COMMIT").catch(() => undefined);
        for (const table of ["timeline_names", "timeline_pages", "timeline_pairs"])
          await c.run(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
      }
    },

    /**
     * The rows of batches after the base's, as a small timeline (every instant: the evaluators keep
     * to the range): those read before plus those of the batches since, merged in key and time order.
     */
    async fresh(property, tl) {
      const pkey = deps.pkeyOf(property);
      const before = tl.state.fresh;
      if (pkey === undefined) return { timeline: before.timeline, rows: before.pair.length };
      // Read from DuckDB's vectors, not as row objects. Batches commit one after another, so once
      // batch M is seen every batch before it is too: M is where the next read starts.
      const rows = await deps.readers.use(
        async (c) => {
          const result = await c.stream(
            "SELECT vkey, epoch_ms(ts)::DOUBLE AS t, name, path, batch FROM events WHERE pkey = $k AND batch > $b ORDER BY vkey, ts",
            { k: pkey, b: before.through },
          );
          const out = { vkey: [] as bigint[], t: [] as number[], pair: [] as number[], through: before.through };
          for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
            const [k, at, nm, pg, b] = [0, 1, 2, 3, 4].map((i) => chunk.getColumnVector(i));
            for (let i = 0; i < chunk.rowCount; i++) {
              out.vkey.push(k?.getItem(i) as bigint);
              out.t.push(at?.getItem(i) as number);
              out.pair.push(tl.pairs.id(tl.names.id(String(nm?.getItem(i))), tl.pages.id(String(pg?.getItem(i)))));
              const batch = b?.getItem(i) as bigint;
              if (batch > out.through) out.through = batch;
            }
          }
          return out;
        },
        { timeoutMs: deps.timeoutMs },
      );
      if (rows.vkey.length > 0) {
        const merged = mergeRuns(before, rows);
        tl.state.fresh = { ...merged, through: rows.through, timeline: encoded(merged.vkey, merged.t, merged.pair) };
      }
      return { timeline: tl.state.fresh.timeline, rows: tl.state.fresh.pair.length };
    },

    async passing(text, pages) {
      const hit = await deps.query<{ i: number }>(timelinePagesSql(text, "duckdb", pages));
      return hit.map((r) => Number(r.i));
    },

    async clientIds(spec: FunnelSpec, property: string, ctx: CompileContext, keys: readonly bigint[]) {
      const found = await deps.query<{ cid: string }>(compileFunnelClientIds(spec, property, "duckdb", ctx, keys));
      return [...new Set(found.map((r) => String(r.cid)).filter((c) => c !== ""))].sort();
    },
  };
  return new Timelines(source, opts);
}
