// The DuckDB store's visitor timelines (@lookout/query funnel-timeline.ts): per property, its events
// in memory in columns, by visitor and time, so that a funnel reads them where they lie instead of
// scanning, joining and packing the events table (DESIGN.md §8: a 4-step funnel at 10M events
// within 300 ms). Exact, because nothing is left out or counted twice:
// - The base holds every event of the batches up to B (batch numbers only grow, and every batch up
//   to B had committed when B was read, so no later row has a batch <= B). Each funnel reads the
//   rows of later batches (the fresh part) from DuckDB, which the batch column's zone maps narrow
//   to the newest row groups, and evaluates each visitor over both.
// - Rows only leave the events table by a deletion (a visitor, a property): forget() drops the
//   property's timeline (and a build that was running), and the next funnel builds it again. SQL
//   answers meanwhile.
// Filters are decided by DuckDB itself, over each distinct page once (the same condition the SQL
// path prints), so both paths agree on case folding and regular expressions.
// A timeline costs 7 bytes an event (its instant and its (name, page) pair: @lookout/query
// timeline.ts) and 12 per visitor, 8 more an event for the postings of timelines up to
// `postingsMaxEvents`; they hold `maxEvents` events at most between them (100M events: about 900
// MB), the least recently used dropped first, and are built when a property's first funnel or
// retention grid asks (below `minEvents` SQL is fast enough). One build at a time, on a connection
// of its own; a large one is read in slices of the visitor keys' range, so that DuckDB sorts a
// slice at a time within its memory limit.
import { type DuckDBConnection, type DuckDBValue, listValue } from "@duckdb/node-api";
import {
  type CompileContext,
  type CompiledQuery,
  compileFunnelClientIds,
  FUNNEL_IGNORED_EVENTS,
  type FunnelOutcomes,
  type FunnelPlan,
  funnelActorMatches,
  indexTimeline,
  keepTopValues,
  type RetentionPlan,
  retentionGridStarts,
  retentionTimelineCovers,
  T_HI,
  TIMELINE_MAX_SPAN_MS,
  type Timeline,
  type TimelineSelector,
  timelineCovers,
  timelineFunnelOutcomes,
  timelinePagesSql,
  timelineRetentionCells,
} from "@lookout/query";
import { type FunnelActorSelector, type FunnelSpec, parseFilters, type RetentionSpec } from "@lookout/schema";
import type { ReaderPool } from "./duckdb-read.js";
import { plainRows } from "./duckdb-rows.js";
import {
  Dictionary,
  emptyFresh,
  encoded,
  type Fresh,
  mergeRuns,
  PairDictionary,
  TimelineWriter,
} from "./duckdb-timeline-columns.js";
import { REGEX_ERROR } from "./insights.js";

export interface TimelineOptions {
  /** A property's timeline is built once it has this many events (default 100 000; below, SQL is as fast). */
  minEvents?: number;
  /** Events the timelines of all properties hold together at most (default 120 000 000: about 1 GB); least recently used go first, a larger property is left to SQL. */
  maxEvents?: number;
  /** A timeline of up to this many events keeps postings (8 bytes an event; default 25 000 000); a larger one is scanned for a funnel's step 1. */
  postingsMaxEvents?: number;
  /** The base is read in slices of the visitor keys' range of about this many events, each sorted by DuckDB alone (default 12 000 000). */
  sliceEvents?: number;
  /** The base is read again once the fresh part passes this many rows (default 200 000). */
  refreshRows?: number;
  /** A funnel waits for its property's build instead of answering by SQL meanwhile (tests, the bench). */
  awaitBuild?: boolean;
}

const DEFAULTS = {
  minEvents: 100_000,
  maxEvents: 120_000_000,
  postingsMaxEvents: 25_000_000,
  sliceEvents: 12_000_000,
  refreshRows: 200_000,
};
/** How soon a property found too small or too large is looked at again. */
const RECHECK_MS = 10 * 60_000;

interface Ready {
  base: Timeline;
  /** The last batch the base holds. */
  through: bigint;
  names: Dictionary;
  pages: Dictionary;
  pairs: PairDictionary;
  /** Per filters text, which pages pass it, for the pages evaluated so far. */
  passes: Map<string, Uint8Array>;
  /** The rows of later batches read so far: each query reads only those of batches since. */
  fresh: Fresh;
  /** The fresh part's reads, one after another (two at once would both add the same rows). */
  freshReads: Promise<unknown>;
}

/** What a query reads: the ready timeline, its fresh rows, and the deletions' count when it began. */
interface Read {
  pkey: bigint;
  generation: number;
  tl: Ready;
  fresh: Timeline;
}

/**
 * A filter DuckDB's regex engine refuses, more visitors than a funnel reads, or fresh events too
 * far in time from each other for a timeline: SQL answers, and says so in the caller's own terms.
 */
async function orSql<T>(fn: () => Promise<T | null>): Promise<T | null> {
  try {
    return await fn();
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const code = (err as { code?: unknown })?.code;
    if (REGEX_ERROR.test(msg) || code === "too_many_events" || code === "timeline_span") return null;
    throw err;
  }
}

type Entry =
  | { state: "building"; done: Promise<void> }
  | { state: "ready"; tl: Ready; refreshing: boolean }
  | { state: "unfit"; until: number };

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

export class DuckDbTimelines {
  readonly #opts: Required<TimelineOptions>;
  readonly #entries = new Map<bigint, Entry>();
  /** Bumped by forget(): a build that started under an older value is dropped. */
  readonly #generation = new Map<bigint, number>();
  #builds: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(
    private readonly deps: TimelineDeps,
    opts: TimelineOptions = {},
  ) {
    this.#opts = { ...DEFAULTS, awaitBuild: false, ...opts };
  }

  /** The property's events changed other than by appends (a deletion): its timeline is dropped. */
  forget(pkey: bigint): void {
    this.#generation.set(pkey, (this.#generation.get(pkey) ?? 0) + 1);
    this.#entries.delete(pkey);
  }

  /** Stops: a build under way is interrupted (its statement ends at DuckDB's next chunk). */
  close(): Promise<unknown> {
    this.#closed = true;
    this.deps.connection.interrupt();
    return this.#builds;
  }

  /** The funnel's outcomes from the property's timeline, or null where SQL must answer (not covered, not built). */
  async funnel(property: string, spec: FunnelSpec, plan: FunnelPlan): Promise<FunnelOutcomes | null> {
    return orSql(async () => {
      const q = await this.#resolve(property, spec, plan);
      return q && keepTopValues(plan, timelineFunnelOutcomes(q.funnel, q.tl.base, q.fresh));
    });
  }

  /**
   * The client ids (sorted, distinct) of the visitors behind a step's point, from the timeline's
   * outcomes; each visitor's client id read from DuckDB as the SQL path reads it. Null where SQL must answer.
   */
  async funnelActors(
    property: string,
    spec: FunnelSpec,
    plan: FunnelPlan,
    ctx: CompileContext,
    at: FunnelActorSelector,
  ): Promise<string[] | null> {
    return orSql(async () => {
      const q = await this.#resolve(property, spec, plan);
      if (q === null) return null;
      const { outcomes, keys } = timelineFunnelOutcomes(q.funnel, q.tl.base, q.fresh, true);
      const matched: bigint[] = [];
      for (let i = 0; i < outcomes.count; i++) if (funnelActorMatches(outcomes, i, at)) matched.push(keys[i] as bigint);
      if (matched.length === 0) return [];
      const found = await this.deps.query<{ cid: string }>(compileFunnelClientIds(spec, property, ctx, matched.join(",")));
      return [...new Set(found.map((r) => String(r.cid)).filter((c) => c !== ""))].sort();
    });
  }

  /** The spec against the property's ready timeline and its fresh part, or null (not covered, not built). */
  async #resolve(property: string, spec: FunnelSpec, plan: FunnelPlan) {
    if (!timelineCovers(spec)) return null;
    const read = await this.#read(property);
    if (read === null) return null;
    const { tl, fresh } = read;
    const [steps, exclusions, keep] = await Promise.all([
      Promise.all(spec.steps.map((s) => this.#selector(tl, s.event, s.filters))),
      Promise.all(spec.exclusions.map((x) => this.#selector(tl, x.event, x.filters))),
      this.#passing(tl, spec.filters ?? ""),
    ]);
    if (!this.#still(read)) return null;
    const ignored = new Uint8Array(tl.names.values.length);
    for (const n of FUNNEL_IGNORED_EVENTS) if (tl.names.has(n) >= 0) ignored[tl.names.has(n)] = 1;
    return { tl, fresh, funnel: { plan, steps, exclusions, keep, ignored, pairs: tl.pairs.snapshot() } };
  }

  /** A retention grid's cells (as retentionCells gives them) from the property's timeline, or null where SQL must answer. */
  async retention(property: string, spec: RetentionSpec, plan: RetentionPlan, timezone: string): Promise<number[][] | null> {
    if (!retentionTimelineCovers(spec)) return null;
    return orSql(async () => {
      const read = await this.#read(property);
      if (read === null) return null;
      const { tl, fresh } = read;
      const [start, ret, keep] = await Promise.all([
        this.#selector(tl, spec.start_event.event, spec.start_event.filters),
        this.#selector(tl, spec.return_event.event, spec.return_event.filters),
        this.#passing(tl, spec.filters ?? ""),
      ]);
      if (!this.#still(read)) return null;
      const q = { plan, starts: retentionGridStarts(plan, timezone), start, ret, keep, pairs: tl.pairs.snapshot() };
      return timelineRetentionCells(q, tl.base, fresh);
    });
  }

  /** The property's ready timeline and its fresh rows, or null (closed, unknown, not built). */
  async #read(property: string): Promise<Read | null> {
    if (this.#closed) return null;
    const pkey = this.deps.pkeyOf(property);
    if (pkey === undefined) return null;
    const generation = this.#generation.get(pkey) ?? 0;
    const tl = await this.#ready(pkey);
    if (tl === null) return null;
    const fresh = await this.#fresh(pkey, tl);
    if (fresh.pair.length >= this.#opts.refreshRows) this.#refresh(pkey);
    return { pkey, generation, tl, fresh };
  }

  /**
   * Whether no deletion came since the read began: one that commits while a funnel waits for its
   * fresh rows would pair the old base (still holding the deleted rows) with rows read after it,
   * a state the data was never in. SQL answers such a funnel.
   */
  #still(read: Read): boolean {
    return !this.#closed && (this.#generation.get(read.pkey) ?? 0) === read.generation;
  }

  /** Builds the property's timeline now unless it has one (the server at startup, the bench); whether it has one after. */
  async prepare(property: string): Promise<boolean> {
    const pkey = this.deps.pkeyOf(property);
    if (pkey === undefined || this.#closed) return false;
    let e = this.#entries.get(pkey);
    if (e === undefined || (e.state === "unfit" && Date.now() >= e.until)) e = this.#startBuild(pkey);
    if (e.state === "building") await e.done;
    return this.#entries.get(pkey)?.state === "ready";
  }

  /** The ready timeline, or null (building in the background, or unfit); with awaitBuild, waits. */
  async #ready(pkey: bigint): Promise<Ready | null> {
    let e = this.#entries.get(pkey);
    if (e?.state === "unfit" && Date.now() >= e.until) {
      this.#entries.delete(pkey);
      e = undefined;
    }
    if (e === undefined) e = this.#startBuild(pkey);
    if (e.state === "building") {
      if (!this.#opts.awaitBuild) return null;
      await e.done;
      const now = this.#entries.get(pkey);
      return now?.state === "ready" ? now.tl : null;
    }
    if (e.state !== "ready") return null;
    // Most recently used last: the budget evicts from the front.
    this.#entries.delete(pkey);
    this.#entries.set(pkey, e);
    return e.tl;
  }

  /** Makes room for n more events within maxEvents (all properties together), least recently used first. */
  #evictFor(pkey: bigint, n: number): void {
    let held = 0;
    for (const [k, e] of this.#entries) if (k !== pkey && e.state === "ready") held += e.tl.base.pair.length;
    for (const [k, e] of this.#entries) {
      if (held + n <= this.#opts.maxEvents) break;
      if (k === pkey || e.state !== "ready") continue;
      held -= e.tl.base.pair.length;
      this.#entries.delete(k);
    }
  }

  #startBuild(pkey: bigint): Entry {
    const generation = this.#generation.get(pkey) ?? 0;
    const done = (async () => {
      const built = await this.#build(pkey).catch(() => null);
      // A deletion while it ran: its rows may be in the base; the next funnel starts again.
      if ((this.#generation.get(pkey) ?? 0) !== generation) return;
      if (built === null) this.#entries.set(pkey, { state: "unfit", until: Date.now() + RECHECK_MS });
      else this.#entries.set(pkey, { state: "ready", tl: built, refreshing: false });
    })();
    const entry: Entry = { state: "building", done };
    this.#entries.set(pkey, entry);
    return entry;
  }

  /** Builds the base again in the background; the current one answers meanwhile. */
  #refresh(pkey: bigint): void {
    const e = this.#entries.get(pkey);
    if (e?.state !== "ready" || e.refreshing) return;
    e.refreshing = true;
    const generation = this.#generation.get(pkey) ?? 0;
    void this.#build(pkey)
      .catch(() => null)
      .then((built) => {
        if ((this.#generation.get(pkey) ?? 0) !== generation) return;
        if (built === null) this.#entries.delete(pkey);
        else this.#entries.set(pkey, { state: "ready", tl: built, refreshing: false });
      });
  }

  /** One build at a time (each holds a sort of the property's events). */
  #build(pkey: bigint): Promise<Ready | null> {
    const run = this.#builds.then(() => (this.#closed ? null : this.#load(pkey)));
    this.#builds = run.catch(() => undefined);
    return run;
  }

  /** The property's events up to the last committed batch, read into columns (null: unfit). */
  async #load(pkey: bigint): Promise<Ready | null> {
    const through = await this.deps.committedBatch();
    const c = this.deps.connection;
    const p = { k: pkey, b: through };
    const scope = "pkey = $k AND batch <= $b";
    await c.run("BEGIN TRANSACTION");
    try {
      const counted = plainRows(
        await c.run(`SELECT count(*) AS n, min(epoch_ms(ts)) AS t0, max(epoch_ms(ts)) AS t1 FROM events WHERE ${scope}`, p),
      );
      const n = Number(counted[0]?.n ?? 0);
      if (n < this.#opts.minEvents || n > this.#opts.maxEvents) return null;
      const t0 = n === 0 ? 0n : BigInt(counted[0]?.t0 as bigint);
      if (n > 0 && Number(BigInt(counted[0]?.t1 as bigint) - t0) >= TIMELINE_MAX_SPAN_MS) return null;
      this.#evictFor(pkey, n);
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
      const writer = new TimelineWriter(n, Number(t0), pairs.size);
      const slices = keySlices(Math.max(1, Math.ceil(n / this.#opts.sliceEvents)));
      for (const [lo, hi] of slices) {
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
      if (n <= this.#opts.postingsMaxEvents) base.postings = indexTimeline(base, pairs.size);
      return {
        base,
        through,
        names,
        pages,
        pairs,
        passes: new Map(),
        fresh: emptyFresh(through),
        freshReads: Promise.resolve(),
      };
    } finally {
      await c.run("COMMIT").catch(() => undefined);
      for (const table of ["timeline_names", "timeline_pages", "timeline_pairs"])
        await c.run(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    }
  }

  /**
   * The rows of batches after the base's, as a small timeline (every instant: the evaluators keep
   * to the range): those read before plus those of the batches since, merged in key and time
   * order. New names and pages join the dictionaries.
   */
  #fresh(pkey: bigint, tl: Ready): Promise<Timeline> {
    const read = tl.freshReads.then(() => this.#catchUp(pkey, tl));
    tl.freshReads = read.catch(() => undefined);
    return read;
  }

  async #catchUp(pkey: bigint, tl: Ready): Promise<Timeline> {
    const before = tl.fresh;
    // Read from DuckDB's vectors, not as row objects. Batches commit one after another, so once
    // batch M is seen every batch before it is too: M is where the next read starts.
    const rows = await this.deps.readers.use(
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
      { timeoutMs: this.deps.timeoutMs },
    );
    if (rows.vkey.length === 0) return before.timeline;
    const merged = mergeRuns(before, rows);
    tl.fresh = { ...merged, through: rows.through, timeline: encoded(merged.vkey, merged.t, merged.pair) };
    return tl.fresh.timeline;
  }

  /** A step or an exclusion against the dictionaries. */
  async #selector(tl: Ready, event: string, filters: string | undefined): Promise<TimelineSelector> {
    return { name: tl.names.has(event), pages: await this.#passing(tl, filters ?? "") };
  }

  /** Which pages pass the filters text (null: no filters), decided by DuckDB for the pages not asked about yet. */
  async #passing(tl: Ready, text: string): Promise<Uint8Array | null> {
    if (parseFilters(text).length === 0) return null;
    const known = tl.passes.get(text) ?? new Uint8Array(0);
    const total = tl.pages.values.length;
    if (known.length === total) return known;
    const { sql, params } = timelinePagesSql(text);
    const values: Record<string, DuckDBValue> = { ...params, vals: listValue(tl.pages.values.slice(known.length)) };
    const hit = await this.deps.readers.use((c) => c.run(sql, values).then(plainRows), { timeoutMs: this.deps.timeoutMs });
    const passes = new Uint8Array(total);
    passes.set(known);
    for (const r of hit) passes[known.length + Number(r.i)] = 1;
    tl.passes.set(text, passes);
    return passes;
  }
}

/** The visitor keys' (signed 64-bit) range cut into `n` slices in ascending order, as [from, to) bounds (null: open). */
function keySlices(n: number): [bigint | null, bigint | null][] {
  if (n <= 1) return [[null, null]];
  const step = 2n ** 64n / BigInt(n);
  const bound = (i: number) => -(2n ** 63n) + step * BigInt(i);
  return Array.from({ length: n }, (_, i) => [i === 0 ? null : bound(i), i === n - 1 ? null : bound(i + 1)]);
}
