// Shared pieces of the printer: the scope of one statement (property, periods, parameters), the
// period predicates that follow the property predicate of every table read (relation.ts adds
// that one), local wall time as an offset CASE, and the visit-level semi-joins that event-level
// filters become.
import type { SettledVisits } from "./compiled.js";
import type { Filter, Interval } from "@lookout/schema";
import type { Dialect, EventBounds } from "./dialects.js";
import { isNegative, matchCondition, propCondition, rowCondition, type SessionFilter } from "./filters.js";
import type { Params } from "./params.js";
import { inRelation, type TableScope } from "./relation.js";
import { NON_CUSTOM_EVENT_NAMES } from "./tables.js";
import { type OffsetSegment, offsetSegments } from "./tz.js";

const DAY = 86_400_000;

export interface Period {
  from: number;
  to: number;
  /**
   * Where the period's visitors are counted from, when the statement reads only a later part of
   * it (the rest comes from day rollups, day-rollup.ts): a visitor counts on a visit whose prev_*
   * is before this. Defaults to `from`.
   */
  countFrom?: number;
}

/** What every printer helper needs: the dialect, the parameters, the property and the periods. */
export class Scope implements TableScope {
  readonly property: string;
  readonly hullFrom: number;
  readonly hullTo: number;
  #aliases = 0;

  constructor(
    readonly d: Dialect,
    readonly p: Params,
    property: string,
    readonly periods: readonly Period[],
    readonly timezone: string,
    /** CompileContext.settledVisits, for the derived tables' reads. */
    readonly settled?: SettledVisits,
  ) {
    this.property = p.add(property, d.propertyParam);
    this.hullFrom = Math.min(...periods.map((x) => x.countFrom ?? x.from));
    this.hullTo = Math.max(...periods.map((x) => x.to));
  }

  alias(): string {
    return `r${this.#aliases++}`;
  }

  /** start_ts (or another column) inside one of the periods. */
  inPeriods(column = "start_ts"): string {
    const parts = this.periods.map((x) => `(${column} >= ${this.p.ts(x.from)} AND ${column} < ${this.p.ts(x.to)})`);
    return parts.length === 1 ? (parts[0] as string) : `(${parts.join(" OR ")})`;
  }

  /** Where the events of a derived table may lie (ClickHouse derives it, reading a day either side). */
  bounds(): EventBounds {
    // The rows: the periods' own visits. Their prev_* history: from where visitors are counted
    // (a split period's rest reads days after that: day-rollup.ts).
    const fromMs = Math.min(...this.periods.map((x) => x.from)) - DAY;
    const historyMs = this.hullFrom - DAY;
    const toMs = this.hullTo + DAY;
    const startsMs = fromMs + DAY;
    const b: EventBounds = {
      property: this.property,
      from: this.p.ts(fromMs),
      to: this.p.ts(toMs),
      fromMs,
      toMs,
      settled: this.settled,
      ...(this.settled ? { startsFrom: this.p.ts(startsMs), startsFromMs: startsMs } : {}),
    };
    return historyMs < fromMs ? { ...b, historyFrom: this.p.ts(historyMs), historyFromMs: historyMs } : b;
  }

  /**
   * Binds the derived tables' bounds now, where the dialect derives them. Parameters are numbered
   * by first use (params.ts) and the semi-joins have always bound these before their own values;
   * the snapshots pin those numbers.
   */
  reserveBounds(): void {
    if (this.d.derivesTables) this.bounds();
  }

  /** The conditions of a derived-table read after its property: its visits' start. */
  derivedWhere(): string[] {
    return [this.inPeriods()];
  }

  /**
   * The conditions of a raw `events` read of custom events after its property: a visit that
   * started in the range may run on past its end, so events are read until a day later (a visit
   * longer than that is cut).
   */
  customEventsWhere(): string[] {
    const names = NON_CUSTOM_EVENT_NAMES.map((n) => `'${n}'`).join(", ");
    return [`ts >= ${this.p.ts(this.hullFrom)}`, `ts < ${this.p.ts(this.hullTo + DAY)}`, `name NOT IN (${names})`];
  }

  /** The UTC offset (minutes) in force at a UTC timestamp column, valid for instants inside the hull. */
  offsetMinutes(column: string): string {
    return offsetCase(offsetSegments(this.timezone, this.hullFrom, this.hullTo), column, (ms) => this.p.ts(ms));
  }

  /** The key of the local-time chart bucket of a UTC timestamp column (see Dialect.bucket). */
  bucket(interval: Interval, column: string): string {
    return this.d.bucket(interval, column, this.offsetMinutes(column));
  }

  /** The start of the period a visit belongs to (for prev_* comparisons). */
  periodStart(): string {
    const [cur, cmp] = this.periods;
    if (!cur) throw new Error("no period");
    if (!cmp) return this.p.ts(cur.countFrom ?? cur.from);
    return `CASE WHEN start_ts >= ${this.p.ts(cur.from)} THEN ${this.p.ts(cur.from)} ELSE ${this.p.ts(cmp.from)} END`;
  }
}

/** The offset (minutes) of `segments` in force at a timestamp column: a constant or a CASE. */
export function offsetCase(segments: OffsetSegment[], column: string, ts: (ms: number) => string): string {
  const last = segments[segments.length - 1];
  if (segments.length === 1 || !last) return String(segments[0]?.offsetMinutes ?? 0);
  const whens = segments
    .slice(0, -1)
    .map((s) => `WHEN ${column} < ${ts(s.untilMs ?? 0)} THEN ${s.offsetMinutes}`)
    .join(" ");
  return `CASE ${whens} ELSE ${last.offsetMinutes} END`;
}

export interface EventFilters {
  page: Filter[];
  event: Filter[];
  prop: Filter[];
}

/** The conditions that make one custom event match every positive event_name and prop filter. */
export function customEventCore(s: Scope, f: EventFilters): string[] {
  return [
    ...f.event.filter((x) => !isNegative(x)).map((x) => matchCondition(x, "name", s.p, s.d)),
    ...f.prop.filter((x) => !isNegative(x)).map((x) => propCondition(x, s.p, s.d)),
  ];
}

export interface SemiJoinOptions {
  /** The visit key column of the relation being filtered. */
  key: string;
  /** Leave out the positive filters the relation applies to its own rows. */
  skipPositivePage?: boolean;
  skipPositiveCustom?: boolean;
  sessionFilters?: SessionFilter[];
}

/** Event-level filters as conditions on a relation's visit key (see filters.ts for semantics). */
export function semiJoins(s: Scope, f: EventFilters, o: SemiJoinOptions): string[] {
  s.reserveBounds();
  const out: string[] = [];
  // The positive page filters together on one page (filters.ts), as the pages grain applies them
  // to its own rows; each negative one on its own.
  const positivePages = f.page.filter((x) => !isNegative(x));
  if (positivePages.length > 0 && !o.skipPositivePage) {
    const conds = positivePages.map((x) => matchCondition(x, "path", s.p, s.d));
    out.push(inRelation(s, o.key, false, "skey", "session_pages", [...s.derivedWhere(), ...conds]));
  }
  for (const x of f.page.filter(isNegative)) {
    out.push(inRelation(s, o.key, true, "skey", "session_pages", [...s.derivedWhere(), matchCondition(x, "path", s.p, s.d)]));
  }
  const core = o.skipPositiveCustom ? [] : customEventCore(s, f);
  if (core.length > 0 && f.prop.length === 0) {
    out.push(inRelation(s, o.key, false, "skey", "session_events", [...s.derivedWhere(), ...core]));
  } else if (core.length > 0) {
    out.push(inRelation(s, o.key, false, s.d.eventSkey, "events", [...s.customEventsWhere(), ...core]));
  }
  for (const x of f.event.filter(isNegative)) {
    const cond = matchCondition(x, "name", s.p, s.d);
    out.push(inRelation(s, o.key, true, "skey", "session_events", [...s.derivedWhere(), cond]));
  }
  for (const x of f.prop.filter(isNegative)) {
    out.push(inRelation(s, o.key, true, s.d.eventSkey, "events", [...s.customEventsWhere(), propCondition(x, s.p, s.d)]));
  }
  if (o.sessionFilters && o.sessionFilters.length > 0) {
    const conds = o.sessionFilters.map((x) => rowCondition(x.filter, x.column, s.p, s.d));
    out.push(inRelation(s, o.key, false, "skey", "sessions", [...s.derivedWhere(), ...conds]));
  }
  return out;
}
