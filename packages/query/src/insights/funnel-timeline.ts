// Funnels from visitor timelines: a property's events held in memory in columns, sorted by visitor
// and time (the DuckDB store keeps them: @lookout/storage duckdb-timelines.ts), the layout
// Mixpanel's event store keeps per user so that a funnel is one pass over each user's events. The
// SQL path (funnel.ts) spends most of its time scanning, joining and packing rows before
// funnel-eval.ts sees them; here the same evaluator reads the events where they lie.
//
// The same definition as the SQL path, step for step: an event counts when it lies in the range and
// passes the global filters; a visitor is evaluated when one of their counted events matches step 1;
// a strict funnel considers every counted event but FUNNEL_IGNORED_EVENTS, the others those matching
// a step or an exclusion, and none reads FUNNEL_IGNORED_EVENTS; and the ordered funnels keep the events between the first step-1 event and
// the last one's window's end (funnel.ts says why nothing outside it changes an outcome).
// Which specs a timeline can answer is decided here (timelineCovers), apart from any store.
import type { FunnelSpec } from "@lookout/schema";
import { parseFilters } from "@lookout/schema";
import { DIALECTS } from "../dialects.js";
import { Params } from "../params.js";
import type { FunnelPlan } from "./funnel.js";
import { beginVisitor, finishVisitor, pushEvent } from "./funnel-eval.js";
import { FunnelOutcomes } from "./funnel-outcomes.js";
import { eventCondition } from "./trends.js";

/** A property's events in columns, by visitor then time. */
export interface Timeline {
  /** The visitors' keys (the events' vkey), ascending. */
  keys: BigInt64Array;
  /** Visitor v's events are [starts[v], starts[v + 1]), in time order; starts has keys.length + 1 entries. */
  starts: Int32Array;
  /** Each event's epoch milliseconds. */
  t: Float64Array;
  /** Each event's name, as an index into the store's names. */
  name: Int32Array;
  /** Each event's page (path), as an index into the store's pages. */
  page: Int32Array;
}

/** The only dimension a timeline holds besides the event's name: filters on any other one go to SQL. */
export const TIMELINE_DIMENSIONS: readonly string[] = ["page"];

/** Whether a timeline holds what the spec needs: no breakdown, every filter on a dimension it keeps. */
export function timelineCovers(spec: FunnelSpec): boolean {
  if (spec.breakdown !== undefined) return false;
  const texts = [spec.filters ?? "", ...spec.steps.map((s) => s.filters ?? ""), ...spec.exclusions.map((x) => x.filters ?? "")];
  return texts.every((text) => parseFilters(text).every((f) => TIMELINE_DIMENSIONS.includes(f.dimension)));
}

/**
 * Which of a list of pages pass a filters text (every filter on `page`: timelineCovers), as DuckDB
 * says it: the statement reads the list from `$vals` and returns the indices (from 0) of those
 * that pass. The condition is the SQL path's own (eventCondition), so both agree to the letter.
 */
export function timelinePagesSql(text: string): { sql: string; params: Record<string, string> } {
  const d = DIALECTS.duckdb;
  const p = new Params(d);
  const cond = parseFilters(text)
    .map((f) => eventCondition(f, p, d))
    .join(" AND ");
  const sql = `SELECT i FROM (SELECT unnest($vals::VARCHAR[]) AS path, unnest(range(len($vals::VARCHAR[]))) AS i) WHERE ${cond || "true"}`;
  return { sql, params: p.usedIn(sql) };
}

/** A step or an exclusion, resolved against the store's names and pages. */
export interface TimelineSelector {
  /** Its event's name index; -1 when no event has that name. */
  name: number;
  /** Per page index, whether its filters keep that page (null: it has none). */
  pages: Uint8Array | null;
}

/** A covered funnel spec, resolved against the store's names and pages. */
export interface TimelineFunnel {
  plan: FunnelPlan;
  steps: TimelineSelector[];
  exclusions: TimelineSelector[];
  /** Per page index, whether the global filters keep it (null: there are none). */
  keep: Uint8Array | null;
  /** Per name index, whether the funnel never reads the event (FUNNEL_IGNORED_EVENTS). */
  ignored: Uint8Array;
  /** The number of names (the selectors' tables are sized by it). */
  names: number;
}

/** A visitor key's index in ascending `keys`, or -1. */
function findKey(keys: BigInt64Array, key: bigint): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = keys[mid] as bigint;
    if (k === key) return mid;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

// The visitor being read, in columns kept from visitor to visitor (no object per event).
let count = 0;
let ST = new Float64Array(1024);
let SM = new Int32Array(1024);
let SX = new Int32Array(1024);

function keepEvent(t: number, m: number, x: number): void {
  if (count === ST.length) {
    const grow = <A extends Float64Array | Int32Array>(a: A): A => {
      const b = new (a.constructor as new (n: number) => A)(2 * a.length);
      b.set(a);
      return b;
    };
    ST = grow(ST);
    SM = grow(SM);
    SX = grow(SX);
  }
  ST[count] = t;
  SM[count] = m;
  SX[count] = x;
  count++;
}

/** Per query: which selectors each name has (indices into the steps then exclusions), and the range. */
interface Compiled {
  byName: (Int32Array | null)[];
  bits: Int32Array;
  isExclusion: Uint8Array;
  pages: (Uint8Array | null)[];
  keep: Uint8Array | null;
  ignored: Uint8Array;
  strict: boolean;
  from: number;
  to: number;
}

function compile(q: TimelineFunnel): Compiled {
  const selectors = [...q.steps, ...q.exclusions];
  const lists: number[][] = Array.from({ length: q.names }, () => []);
  selectors.forEach((s, i) => {
    if (s.name >= 0) lists[s.name]?.push(i);
  });
  return {
    byName: lists.map((l) => (l.length > 0 ? Int32Array.from(l) : null)),
    bits: Int32Array.from(selectors, (_, i) => (i < q.steps.length ? 1 << i : 1 << (i - q.steps.length))),
    isExclusion: Uint8Array.from(selectors, (_, i) => (i < q.steps.length ? 0 : 1)),
    pages: selectors.map((s) => s.pages),
    keep: q.keep,
    ignored: q.ignored,
    strict: q.plan.order === "strict",
    from: q.plan.range.from.getTime(),
    to: q.plan.range.to.getTime(),
  };
}

/** Appends the counted events of tl's visitor v to the scratch columns. */
function readVisitor(c: Compiled, tl: Timeline, v: number): void {
  const { t, name, page } = tl;
  const end = tl.starts[v + 1] as number;
  for (let i = tl.starts[v] as number; i < end; i++) {
    const at = t[i] as number;
    if (at < c.from || at >= c.to) continue;
    const pg = page[i] as number;
    if (c.keep !== null && c.keep[pg] === 0) continue;
    const nm = name[i] as number;
    let m = 0;
    let x = 0;
    const sels = c.byName[nm];
    if (sels) {
      for (let k = 0; k < sels.length; k++) {
        const s = sels[k] as number;
        const pages = c.pages[s];
        if (pages !== null && pages?.[pg] !== 1) continue;
        if (c.isExclusion[s] === 1) x |= c.bits[s] as number;
        else m |= c.bits[s] as number;
      }
    }
    // Never an ignored name (the SQL reads none: funnel.ts matchingEvents); the ordered funnels
    // but strict read only what matches a step or an exclusion.
    if (c.ignored[nm] === 1 || (!c.strict && (m | x) === 0)) continue;
    keepEvent(at, m, x);
  }
}

/** The scratch columns' visitor evaluated: nothing without a step-1 event; the ordered funnels' span kept. */
function evaluate(plan: FunnelPlan, out: FunnelOutcomes): void {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    if (((SM[i] as number) & 1) === 0) continue;
    const at = ST[i] as number;
    if (at < first) first = at;
    if (at > last) last = at;
  }
  if (first === Number.POSITIVE_INFINITY) return;
  const span = plan.order !== "any";
  const until = last + plan.windowMs;
  beginVisitor();
  for (let i = 0; i < count; i++) {
    const at = ST[i] as number;
    if (span && (at < first || at > until)) continue;
    pushEvent(at, SM[i] as number, SX[i] as number, "");
  }
  finishVisitor(plan, out);
}

/**
 * Each visitor's outcome (FunnelOutcomes, as funnelOutcomesOfPacks gives them) from `base` and
 * `fresh`, the events appended since base was read: a visitor in both is read from both.
 */
export function timelineFunnelOutcomes(q: TimelineFunnel, base: Timeline, fresh: Timeline): FunnelOutcomes {
  const out = new FunnelOutcomes(q.plan.labels.length, q.plan.order !== "any");
  const c = compile(q);
  const alsoFresh = new Map<number, number>();
  const freshOnly: number[] = [];
  for (let f = 0; f < fresh.keys.length; f++) {
    const b = findKey(base.keys, fresh.keys[f] as bigint);
    if (b >= 0) alsoFresh.set(b, f);
    else freshOnly.push(f);
  }
  for (let v = 0; v < base.keys.length; v++) {
    count = 0;
    readVisitor(c, base, v);
    const f = alsoFresh.size > 0 ? alsoFresh.get(v) : undefined;
    if (f !== undefined) readVisitor(c, fresh, f);
    evaluate(q.plan, out);
  }
  for (const f of freshOnly) {
    count = 0;
    readVisitor(c, fresh, f);
    evaluate(q.plan, out);
  }
  return out;
}
