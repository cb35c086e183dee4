// Visitor timelines kept by a store (@lookout/query timeline.ts: the layout), whatever the engine:
// per property, its events in memory in columns, by visitor and time, so that funnels, retention
// grids, stickiness and lifecycle read them where they lie instead of scanning, joining and
// packing the events table (DESIGN.md §8). This module owns which properties hold one (built when
// a property's first such insight asks, below `minEvents` SQL is fast enough; `maxEvents` between
// them all, the least recently used dropped first), the builds (one at a time), the fresh part
// each query adds, the page filters' verdicts per page, and each kind's rows (timeline-answers.ts
// shapes them for a store). What the engine does is a TimelineSource's: DuckDB's
// (duckdb-timelines.ts) and ClickHouse's (clickhouse-timelines.ts). Exact, because the source says
// which rows the base holds and which the fresh part must add, and says so when a base no longer
// holds (ClickHouse: a late insert or a deletion on another server); SQL answers then.
import {
  type CompileContext,
  FUNNEL_IGNORED_EVENTS,
  type LifecyclePlan,
  type LifecycleRow,
  lifecycleTimelineCovers,
  type StickinessPlan,
  type StickinessRow,
  stickinessTimelineCovers,
  timelineStickinessRows,
  type FunnelOutcomes,
  type FunnelPlan,
  funnelActorMatches,
  keepTopValues,
  type RetentionPlan,
  retentionGridStarts,
  retentionTimelineCovers,
  type Timeline,
  type TimelineDays,
  type TimelineSelector,
  timelineCovers,
  timelineDays,
  timelineFunnelOutcomes,
  timelineLifecycleRows,
  timelineRetentionCells,
} from "@lookout/query";
import {
  type FunnelActorSelector,
  type FunnelSpec,
  type LifecycleSpec,
  parseFilters,
  type RetentionSpec,
  type StickinessSpec,
} from "@lookout/schema";
import type { Dictionary, PairDictionary } from "./timeline-columns.js";
import { REGEX_ERROR } from "./insights.js";

export interface TimelineOptions {
  /** A property's timeline is built once it has this many events (default 100 000; below, SQL is as fast). */
  minEvents?: number;
  /** Events the timelines of all properties hold together at most (default 120 000 000: about 1 GB); least recently used go first, a larger property is left to SQL. */
  maxEvents?: number;
  /** A timeline of up to this many events keeps postings (8 bytes an event; default 25 000 000); a larger one is scanned for a funnel's step 1. */
  postingsMaxEvents?: number;
  /** The base is read in slices of the visitor keys' range of about this many events, each sorted by the engine alone (default 12 000 000). */
  sliceEvents?: number;
  /** The base is read again once the fresh part passes this many rows (default 200 000). */
  refreshRows?: number;
  /** A funnel waits for its property's build instead of answering by SQL meanwhile (tests, the bench). */
  awaitBuild?: boolean;
  /**
   * Told the bytes the timelines hold, or are about to while a base is read, whenever that changes
   * (the DuckDB store gives DuckDB less room past a share: duckdb-store.ts).
   */
  onMemory?: (bytes: number) => void;
}

export const TIMELINE_DEFAULTS = {
  minEvents: 100_000,
  maxEvents: 120_000_000,
  postingsMaxEvents: 25_000_000,
  sliceEvents: 12_000_000,
  refreshRows: 200_000,
  awaitBuild: false,
  onMemory: () => {},
} satisfies Required<TimelineOptions>;

/** What a base about to be read holds, per event: 7 bytes and about 12 per visitor (6.7 events each), 8 more with postings. */
const BYTES_PER_EVENT = 9;
const POSTING_BYTES = 8;

/** The bytes a timeline's columns hold (their whole buffers: a view may be shorter). */
function heldBytes(tl: Timeline): number {
  const arrays = [tl.keys, tl.starts, tl.tLo, tl.tHi, tl.pair];
  if (tl.postings) arrays.push(tl.postings.positions, tl.postings.pairStart, tl.postings.visitorOf);
  return arrays.reduce((sum, a) => sum + a.buffer.byteLength, 0);
}

/** Pages whose filters' verdicts one statement asks for. */
const PAGES_PER_STATEMENT = 1000;

/** How soon a property found too small or too large is looked at again. */
const RECHECK_MS = 10 * 60_000;

/** A base as a source reads it, with the source's own note of what it holds (`S`). */
export interface Ready<S> {
  base: Timeline;
  names: Dictionary;
  pages: Dictionary;
  pairs: PairDictionary;
  /** The source's: which rows the base holds, and what its fresh part has read so far. */
  state: S;
  /** Per filters text, which pages pass it, for the pages evaluated so far. */
  passes: Map<string, Uint8Array>;
  /** The fresh part's reads, one after another (two at once would both add the same rows). */
  freshReads: Promise<unknown>;
}

/** What the engine does for the timelines. */
export interface TimelineSource<S> {
  /**
   * The property's base: its events in columns (rows by visitor key then time), or null when unfit
   * (no events to speak of, or `fits` said no to its count). `fits(n)` makes room for n events.
   */
  load(property: string, fits: (n: number) => boolean): Promise<Omit<Ready<S>, "passes" | "freshReads"> | null>;
  /**
   * The rows the base does not hold, as a timeline (new names, pages and pairs join the base's
   * dictionaries); null when the base no longer holds the rows it read (SQL answers, it is read again).
   */
  fresh(property: string, ready: Ready<S>): Promise<{ timeline: Timeline; rows: number } | null>;
  /** The indices (into `pages`) of the pages that pass a filters text, as the SQL path decides it. */
  passing(text: string, pages: readonly string[]): Promise<number[]>;
  /** The client ids (distinct, sorted) of these visitors' events the funnel considers. */
  clientIds(spec: FunnelSpec, property: string, ctx: CompileContext, keys: readonly bigint[]): Promise<string[]>;
  /** The store closes: a build under way stops. */
  interrupt(): void;
}

/**
 * A filter the engine's regex engine refuses, more visitors than a funnel reads, or fresh events
 * too far in time from each other for a timeline: SQL answers, and says so in the caller's own terms.
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

type Entry<S> =
  | { state: "building"; done: Promise<void> }
  | { state: "ready"; tl: Ready<S>; refreshing: boolean }
  | { state: "unfit"; until: number };

/** What a query reads: the ready timeline, its fresh part, and the deletions' count when it began. */
interface Read<S> {
  property: string;
  generation: number;
  tl: Ready<S>;
  fresh: Timeline;
}

export class Timelines<S> {
  readonly #opts: Required<TimelineOptions>;
  readonly #entries = new Map<string, Entry<S>>();
  /** Bumped by forget(): a build that started under an older value is dropped. */
  readonly #generation = new Map<string, number>();
  #builds: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(
    private readonly source: TimelineSource<S>,
    opts: TimelineOptions = {},
  ) {
    this.#opts = { ...TIMELINE_DEFAULTS, ...opts };
  }

  /** The property's events changed other than by appends (a deletion): its timeline is dropped. */
  forget(property: string): void {
    this.#generation.set(property, (this.#generation.get(property) ?? 0) + 1);
    this.#entries.delete(property);
    this.#report();
  }

  /** Tells onMemory what the ready timelines hold, plus `reading` bytes of a base being read. */
  #report(reading = 0): void {
    let held = reading;
    for (const e of this.#entries.values()) if (e.state === "ready") held += heldBytes(e.tl.base);
    this.#opts.onMemory(held);
  }

  /** Stops: a build under way is interrupted. */
  close(): Promise<unknown> {
    this.#closed = true;
    this.source.interrupt();
    return this.#builds;
  }

  /** The funnel's outcomes from the property's timeline, or null where SQL must answer (not covered, not built). */
  async funnel(property: string, spec: FunnelSpec, plan: FunnelPlan): Promise<FunnelOutcomes | null> {
    return orSql(async () => {
      const q = await this.#resolve(property, spec, plan);
      return q && keepTopValues(plan, timelineFunnelOutcomes(q.funnel, q.tl.base, q.fresh));
    });
  }

  /** The client ids (sorted, distinct) of the visitors behind a step's point, from the timeline's outcomes. Null where SQL must answer. */
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
      return this.source.clientIds(spec, property, ctx, matched);
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
  retention(property: string, spec: RetentionSpec, plan: RetentionPlan, timezone: string): Promise<number[][] | null> {
    if (!retentionTimelineCovers(spec)) return Promise.resolve(null);
    return this.#answer(property, [spec.start_event, spec.return_event], spec.filters, ([start, ret], keep, tl, fresh) => {
      const [s, r] = [start as TimelineSelector, ret as TimelineSelector];
      const q = { plan, starts: retentionGridStarts(plan, timezone), start: s, ret: r, keep, pairs: tl.pairs.snapshot() };
      return timelineRetentionCells(q, tl.base, fresh);
    });
  }

  /** A lifecycle insight's rows (each grid interval's counts, as its statement gives them) from the property's timeline, or null where SQL must answer. */
  lifecycle(property: string, spec: LifecycleSpec, plan: LifecyclePlan, timezone: string): Promise<LifecycleRow[] | null> {
    if (!lifecycleTimelineCovers(spec)) return Promise.resolve(null);
    return this.#answer(property, [spec.event], spec.filters, ([event], keep, tl, fresh) =>
      timelineLifecycleRows(
        { plan, event: event as TimelineSelector, keep, pairs: tl.pairs.snapshot(), timezone },
        tl.base,
        fresh,
        this.#days(tl.base, fresh, timezone),
      ),
    );
  }

  /** A stickiness insight's rows (visitors per number of intervals, as its statement gives them) from the property's timeline, or null where SQL must answer. */
  stickiness(
    property: string,
    spec: StickinessSpec,
    plan: StickinessPlan & { from: number; to: number },
    starts: Float64Array,
    timezone: string,
  ): Promise<StickinessRow[] | null> {
    if (!stickinessTimelineCovers(spec)) return Promise.resolve(null);
    return this.#answer(property, [spec.event], spec.filters, ([event], keep, tl, fresh) => {
      const q = {
        plan,
        from: plan.from,
        to: plan.to,
        starts,
        event: event as TimelineSelector,
        keep,
        pairs: tl.pairs.snapshot(),
        timezone,
      };
      return timelineStickinessRows(q, tl.base, fresh, this.#days(tl.base, fresh, timezone));
    });
  }

  /** A base's events' local days in the last timezone asked (kept with the base: 2 bytes an event), and its fresh part's. */
  readonly #baseDays = new WeakMap<Timeline, { timezone: string; days: TimelineDays }>();

  #days(base: Timeline, fresh: Timeline, timezone: string): { base: TimelineDays; fresh: TimelineDays } {
    let kept = this.#baseDays.get(base);
    if (kept?.timezone !== timezone) {
      kept = { timezone, days: timelineDays(base, timezone) };
      this.#baseDays.set(base, kept);
    }
    return { base: kept.days, fresh: timelineDays(fresh, timezone) };
  }

  /**
   * `run` over the property's ready timeline and its fresh part, with the events resolved against
   * its dictionaries and the global filters' verdicts per page; null where SQL must answer.
   */
  #answer<T>(
    property: string,
    events: readonly { event: string; filters?: string | undefined }[],
    filters: string | undefined,
    run: (selected: TimelineSelector[], keep: Uint8Array | null, tl: Ready<S>, fresh: Timeline) => T,
  ): Promise<T | null> {
    return orSql(async () => {
      const read = await this.#read(property);
      if (read === null) return null;
      const { tl, fresh } = read;
      const [selected, keep] = await Promise.all([
        Promise.all(events.map((e) => this.#selector(tl, e.event, e.filters))),
        this.#passing(tl, filters ?? ""),
      ]);
      if (!this.#still(read)) return null;
      return run(selected, keep, tl, fresh);
    });
  }

  /** The property's ready timeline and its fresh part, or null (closed, not built, no longer holding). */
  async #read(property: string, again = true): Promise<Read<S> | null> {
    if (this.#closed) return null;
    const generation = this.#generation.get(property) ?? 0;
    const tl = await this.#ready(property);
    if (tl === null) return null;
    const read = tl.freshReads.then(() => this.source.fresh(property, tl));
    tl.freshReads = read.catch(() => undefined);
    const fresh = await read;
    if (fresh === null) {
      // The base no longer holds what it read: read again in the background (once), SQL answers meanwhile.
      const e = this.#entries.get(property);
      if (e?.state === "ready" && e.tl === tl) this.#startBuild(property);
      // Waiting for builds (tests, the bench): the new base, once.
      return this.#opts.awaitBuild && again ? this.#read(property, false) : null;
    }
    if (fresh.rows >= this.#opts.refreshRows) this.#refresh(property);
    return { property, generation, tl, fresh: fresh.timeline };
  }

  /**
   * Whether no deletion came since the read began: one that commits while a funnel waits for its
   * fresh rows would pair the old base (still holding the deleted rows) with rows read after it,
   * a state the data was never in. SQL answers such a funnel.
   */
  #still(read: Read<S>): boolean {
    return !this.#closed && (this.#generation.get(read.property) ?? 0) === read.generation;
  }

  /** Builds the property's timeline now unless it has one (the server at startup, the bench); whether it has one after. */
  async prepare(property: string): Promise<boolean> {
    if (this.#closed) return false;
    let e = this.#entries.get(property);
    if (e === undefined || (e.state === "unfit" && Date.now() >= e.until)) e = this.#startBuild(property);
    if (e.state === "building") await e.done;
    return this.#entries.get(property)?.state === "ready";
  }

  /** The ready timeline, or null (building in the background, or unfit); with awaitBuild, waits. */
  async #ready(property: string): Promise<Ready<S> | null> {
    let e = this.#entries.get(property);
    if (e?.state === "unfit" && Date.now() >= e.until) {
      this.#entries.delete(property);
      e = undefined;
    }
    if (e === undefined) e = this.#startBuild(property);
    if (e.state === "building") {
      if (!this.#opts.awaitBuild) return null;
      await e.done;
      const now = this.#entries.get(property);
      return now?.state === "ready" ? now.tl : null;
    }
    if (e.state !== "ready") return null;
    // Most recently used last: the budget evicts from the front.
    this.#entries.delete(property);
    this.#entries.set(property, e);
    return e.tl;
  }

  /** Whether n events of `property` fit within maxEvents (and minEvents), making room for them, least recently used first. */
  #fits(property: string, n: number): boolean {
    if (n < this.#opts.minEvents || n > this.#opts.maxEvents) return false;
    let held = 0;
    for (const [k, e] of this.#entries) if (k !== property && e.state === "ready") held += e.tl.base.pair.length;
    for (const [k, e] of this.#entries) {
      if (held + n <= this.#opts.maxEvents) break;
      if (k === property || e.state !== "ready") continue;
      held -= e.tl.base.pair.length;
      this.#entries.delete(k);
    }
    this.#report(n * (BYTES_PER_EVENT + (n <= this.#opts.postingsMaxEvents ? POSTING_BYTES : 0)));
    return true;
  }

  #startBuild(property: string): Entry<S> {
    const generation = this.#generation.get(property) ?? 0;
    const done = (async () => {
      const built = await this.#build(property).catch(() => null);
      // A deletion while it ran: its rows may be in the base; the next funnel starts again.
      if ((this.#generation.get(property) ?? 0) !== generation) return;
      if (built === null) this.#entries.set(property, { state: "unfit", until: Date.now() + RECHECK_MS });
      else this.#entries.set(property, { state: "ready", tl: built, refreshing: false });
      this.#report();
    })();
    const entry: Entry<S> = { state: "building", done };
    this.#entries.set(property, entry);
    return entry;
  }

  /** Builds the base again in the background; the current one answers meanwhile. */
  #refresh(property: string): void {
    const e = this.#entries.get(property);
    if (e?.state !== "ready" || e.refreshing) return;
    e.refreshing = true;
    const generation = this.#generation.get(property) ?? 0;
    void this.#build(property)
      .catch(() => null)
      .then((built) => {
        if ((this.#generation.get(property) ?? 0) !== generation) return;
        if (built === null) this.#entries.delete(property);
        else this.#entries.set(property, { state: "ready", tl: built, refreshing: false });
        this.#report();
      });
  }

  /** One build at a time (each holds a sort of the property's events). */
  #build(property: string): Promise<Ready<S> | null> {
    const run = this.#builds.then(async () => {
      if (this.#closed) return null;
      const loaded = await this.source.load(property, (n) => this.#fits(property, n));
      return loaded && { ...loaded, passes: new Map(), freshReads: Promise.resolve() };
    });
    this.#builds = run.catch(() => undefined);
    return run;
  }

  /** A step or an exclusion against the dictionaries. */
  async #selector(tl: Ready<S>, event: string, filters: string | undefined): Promise<TimelineSelector> {
    return { name: tl.names.has(event), pages: await this.#passing(tl, filters ?? "") };
  }

  /** Which pages pass the filters text (null: no filters), decided by the engine for the pages not asked about yet. */
  async #passing(tl: Ready<S>, text: string): Promise<Uint8Array | null> {
    if (parseFilters(text).length === 0) return null;
    const known = tl.passes.get(text) ?? new Uint8Array(0);
    const total = tl.pages.values.length;
    if (known.length === total) return known;
    const passes = new Uint8Array(total);
    passes.set(known);
    // A statement per thousand pages: each page is a bound value in its text.
    for (let from = known.length; from < total; from += PAGES_PER_STATEMENT) {
      const pages = tl.pages.values.slice(from, Math.min(total, from + PAGES_PER_STATEMENT));
      for (const i of await this.source.passing(text, pages)) passes[from + i] = 1;
    }
    tl.passes.set(text, passes);
    return passes;
  }
}
