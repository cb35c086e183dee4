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
// A timeline costs about 24 bytes an event (time, name, page, and the postings: position, visitor),
// so they hold `maxEvents` events at most between them, the least recently used dropped first, and
// are built when a property's first funnel or retention grid asks (below `minEvents` SQL is fast enough). One build at a time, on a
// connection of its own.
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
import { columnInto, Dictionary, emptyFresh, type Fresh, grouped, mergeRuns } from "./duckdb-timeline-columns.js";
import { REGEX_ERROR } from "./insights.js";

export interface TimelineOptions {
  /** A property's timeline is built once it has this many events (default 100 000; below, SQL is as fast). */
  minEvents?: number;
  /** Events the timelines of all properties hold together at most (default 20 000 000: about 500 MB); least recently used go first, a larger property is left to SQL. */
  maxEvents?: number;
  /** The base is read again once the fresh part passes this many rows (default 200 000). */
  refreshRows?: number;
  /** A funnel waits for its property's build instead of answering by SQL meanwhile (tests, the bench). */
  awaitBuild?: boolean;
}

const DEFAULTS = { minEvents: 100_000, maxEvents: 20_000_000, refreshRows: 200_000 };
/** How soon a property found too small or too large is looked at again. */
const RECHECK_MS = 10 * 60_000;

interface Ready {
  base: Timeline;
  /** The last batch the base holds. */
  through: bigint;
  names: Dictionary;
  pages: Dictionary;
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

/** A filter DuckDB's regex engine refuses, or more visitors than a funnel reads: SQL answers, and says so in the caller's own terms. */
async function orSql<T>(fn: () => Promise<T | null>): Promise<T | null> {
  try {
    return await fn();
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (REGEX_ERROR.test(msg) || (err as { code?: unknown })?.code === "too_many_events") return null;
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
    return { tl, fresh, funnel: { plan, steps, exclusions, keep, ignored, names: tl.names.values.length } };
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
      return timelineRetentionCells({ plan, starts: retentionGridStarts(plan, timezone), start, ret, keep }, tl.base, fresh);
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
    if (fresh.t.length >= this.#opts.refreshRows) this.#refresh(pkey);
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
    for (const [k, e] of this.#entries) if (k !== pkey && e.state === "ready") held += e.tl.base.t.length;
    for (const [k, e] of this.#entries) {
      if (held + n <= this.#opts.maxEvents) break;
      if (k === pkey || e.state !== "ready") continue;
      held -= e.tl.base.t.length;
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
      const counted = plainRows(await c.run(`SELECT count(*) AS n FROM events WHERE ${scope}`, p));
      const n = Number(counted[0]?.n ?? 0);
      if (n < this.#opts.minEvents || n > this.#opts.maxEvents) return null;
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
      const result = await c.stream(
        "SELECT e.vkey, epoch_ms(e.ts)::DOUBLE AS t, n.id AS nid, g.id AS pid FROM events e " +
          "JOIN timeline_names n ON n.v = e.name JOIN timeline_pages g ON g.v = e.path " +
          `WHERE e.${scope.replace("AND batch", "AND e.batch")} ORDER BY e.vkey, e.ts`,
        p,
      );
      const vkey = new BigInt64Array(n);
      const t = new Float64Array(n);
      const name = new Int32Array(n);
      const page = new Int32Array(n);
      let at = 0;
      for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
        const rows = chunk.rowCount;
        if (at + rows > n) throw new Error("the events changed during the timeline's read");
        columnInto(chunk.getColumnVector(0), vkey, at, rows);
        columnInto(chunk.getColumnVector(1), t, at, rows);
        columnInto(chunk.getColumnVector(2), name, at, rows);
        columnInto(chunk.getColumnVector(3), page, at, rows);
        at += rows;
      }
      if (at !== n) throw new Error("the events changed during the timeline's read");
      const base = grouped(vkey, t, name, page);
      base.postings = indexTimeline(base, names.values.length, pages.values.length);
      return { base, through, names, pages, passes: new Map(), fresh: emptyFresh(through), freshReads: Promise.resolve() };
    } finally {
      await c.run("COMMIT").catch(() => undefined);
      for (const table of ["timeline_names", "timeline_pages"])
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
        const out = {
          vkey: [] as bigint[],
          t: [] as number[],
          name: [] as number[],
          page: [] as number[],
          through: before.through,
        };
        for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
          const [k, at, nm, pg, b] = [0, 1, 2, 3, 4].map((i) => chunk.getColumnVector(i));
          for (let i = 0; i < chunk.rowCount; i++) {
            out.vkey.push(k?.getItem(i) as bigint);
            out.t.push(at?.getItem(i) as number);
            out.name.push(tl.names.id(String(nm?.getItem(i))));
            out.page.push(tl.pages.id(String(pg?.getItem(i))));
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
    tl.fresh = { ...merged, through: rows.through, timeline: grouped(merged.vkey, merged.t, merged.name, merged.page) };
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
