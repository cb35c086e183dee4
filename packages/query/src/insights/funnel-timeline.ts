// Funnels from visitor timelines: a property's events held in memory in columns, sorted by visitor
// and time (the DuckDB store keeps them: @lookout/storage duckdb-timelines.ts), the layout
// Mixpanel's event store keeps per user so that a funnel is one pass over each user's events. The
// SQL path (funnel.ts) spends most of its time scanning, joining and packing rows before
// funnel-eval.ts sees them; here the same evaluator reads the events where they lie.
//
// The same definition as the SQL path, step for step: an event counts when it lies in the range
// and passes the global filters, and none of FUNNEL_IGNORED_EVENTS is read; a visitor is evaluated
// when one of their counted events matches step 1 (found through the postings by name and page);
// a strict funnel considers every counted event, the others those matching a step or an exclusion.
// The SQL path also drops the events outside the first step-1 event and the last one's window's
// end; nothing there changes an outcome (funnel.ts), so only visitors whose step 1 must be looked
// for have it applied. Which specs a timeline answers is decided here (timelineCovers).
import type { FunnelSpec } from "@lookout/schema";
import { parseFilters } from "@lookout/schema";
import { DIALECTS } from "../dialects.js";
import { Params } from "../params.js";
import { FUNNEL_MAX_ROWS, type FunnelPlan } from "./funnel.js";
import { beginVisitor, finishVisitor, pushEvent, tooManyVisitors } from "./funnel-eval.js";
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
  /** The events by name and page (indexTimeline): where step 1 can match, without a scan of every event. */
  postings?: TimelinePostings;
}

/**
 * The events' indices sorted by (name, page), and the runs of each (name, page) pair present:
 * combo c is name comboName[c] on page comboPage[c], its events positions[comboStart[c] ..
 * comboStart[c + 1]). Pairs sorted by name, then page.
 */
export interface TimelinePostings {
  positions: Int32Array;
  /** Each event's visitor (an index into keys). */
  visitorOf: Int32Array;
  comboName: Int32Array;
  comboPage: Int32Array;
  comboStart: Int32Array;
}

/** The postings of a timeline of `names` names and `pages` pages: two stable counting sorts (page, then name). */
export function indexTimeline(tl: Timeline, names: number, pages: number): TimelinePostings {
  const n = tl.t.length;
  const byPage = countingSort(tl.page, pages, null);
  const positions = countingSort(tl.name, names, byPage);
  let combos = 0;
  for (let k = 0; k < n; k++) {
    const e = positions[k] as number;
    const prev = k === 0 ? -1 : (positions[k - 1] as number);
    if (k === 0 || tl.name[e] !== tl.name[prev] || tl.page[e] !== tl.page[prev]) combos++;
  }
  const comboName = new Int32Array(combos);
  const comboPage = new Int32Array(combos);
  const comboStart = new Int32Array(combos + 1);
  let c = 0;
  for (let k = 0; k < n; k++) {
    const e = positions[k] as number;
    const prev = k === 0 ? -1 : (positions[k - 1] as number);
    if (k === 0 || tl.name[e] !== tl.name[prev] || tl.page[e] !== tl.page[prev]) {
      comboName[c] = tl.name[e] as number;
      comboPage[c] = tl.page[e] as number;
      comboStart[c] = k;
      c++;
    }
  }
  comboStart[combos] = n;
  const visitorOf = new Int32Array(n);
  for (let v = 0; v < tl.keys.length; v++) visitorOf.fill(v, tl.starts[v] as number, tl.starts[v + 1] as number);
  return { positions, visitorOf, comboName, comboPage, comboStart };
}

/** The indices `order` (null: 0..n-1) stably sorted by key[index] (keys in [0, size)). */
function countingSort(key: Int32Array, size: number, order: Int32Array | null): Int32Array {
  const n = key.length;
  const at = new Int32Array(size + 1);
  for (let i = 0; i < n; i++) {
    const k = (key[i] as number) + 1;
    at[k] = (at[k] as number) + 1;
  }
  for (let k = 0; k < size; k++) at[k + 1] = (at[k + 1] as number) + (at[k] as number);
  const out = new Int32Array(n);
  for (let j = 0; j < n; j++) {
    const i = order === null ? j : (order[j] as number);
    const k = key[i] as number;
    out[at[k] as number] = i;
    at[k] = (at[k] as number) + 1;
  }
  return out;
}

/** The only dimension a timeline holds besides the event's name: filters on any other one go to SQL. */
export const TIMELINE_DIMENSIONS: readonly string[] = ["page"];

/** Whether a timeline holds what the spec needs: no breakdown, every filter on a dimension it keeps. */
export function timelineCovers(spec: FunnelSpec): boolean {
  if (spec.breakdown !== undefined) return false;
  return timelineHoldsFilters([spec.filters, ...spec.steps.map((s) => s.filters), ...spec.exclusions.map((x) => x.filters)]);
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

/** The fresh part's visitors: per base visitor with fresh events, their fresh index; and those only fresh. */
export function pairFresh(base: Timeline, fresh: Timeline): { alsoFresh: Map<number, number>; freshOnly: number[] } {
  const alsoFresh = new Map<number, number>();
  const freshOnly: number[] = [];
  for (let f = 0; f < fresh.keys.length; f++) {
    const b = findKey(base.keys, fresh.keys[f] as bigint);
    if (b >= 0) alsoFresh.set(b, f);
    else freshOnly.push(f);
  }
  return { alsoFresh, freshOnly };
}

/** Whether every filter of these texts is on a dimension the timelines hold. */
export function timelineHoldsFilters(texts: readonly (string | undefined)[]): boolean {
  return texts.every((text) => parseFilters(text ?? "").every((f) => TIMELINE_DIMENSIONS.includes(f.dimension)));
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

/** Per query: which selectors each name has (indices into the steps then exclusions), and the range. */
interface Compiled {
  byName: (Int32Array | null)[];
  bits: Int32Array;
  isExclusion: Uint8Array;
  pages: (Uint8Array | null)[];
  /** Step 1's name and pages (the cheap pass tests them alone). */
  firstName: number;
  firstPages: Uint8Array | null;
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
    firstName: q.steps[0]?.name ?? -1,
    firstPages: q.steps[0]?.pages ?? null,
    keep: q.keep,
    ignored: q.ignored,
    strict: q.plan.order === "strict",
    from: q.plan.range.from.getTime(),
    to: q.plan.range.to.getTime(),
  };
}

/** Whether tl's event i counts at all: in the range, kept by the global filters, not an ignored name. */
function counts(c: Compiled, tl: Timeline, i: number): boolean {
  const at = tl.t[i] as number;
  return (
    at >= c.from && at < c.to && (c.keep === null || c.keep[tl.page[i] as number] === 1) && c.ignored[tl.name[i] as number] !== 1
  );
}

// The span of the visitor being read: their first and last counted step-1 event (none: +Infinity).
let first = Number.POSITIVE_INFINITY;
let last = Number.NEGATIVE_INFINITY;

/** Widens the span by tl's visitor v's step-1 events (the cheap pass: most visitors have none). */
function stepOneSpan(c: Compiled, tl: Timeline, v: number): void {
  const { name, page, t } = tl;
  const end = tl.starts[v + 1] as number;
  for (let i = tl.starts[v] as number; i < end; i++) {
    if (name[i] !== c.firstName || (c.firstPages !== null && c.firstPages[page[i] as number] !== 1) || !counts(c, tl, i))
      continue;
    const at = t[i] as number;
    if (at < first) first = at;
    if (at > last) last = at;
  }
}

/** Loads tl's visitor v's events that the evaluation reads (funnel-eval.ts pushEvent): counted, within the span, matching something unless strict. */
function loadVisitor(c: Compiled, tl: Timeline, v: number, span: boolean, until: number): void {
  const { t, name, page } = tl;
  const end = tl.starts[v + 1] as number;
  for (let i = tl.starts[v] as number; i < end; i++) {
    const at = t[i] as number;
    if ((span && (at < first || at > until)) || !counts(c, tl, i)) continue;
    const pg = page[i] as number;
    let m = 0;
    let x = 0;
    const sels = c.byName[name[i] as number];
    if (sels) {
      for (let k = 0; k < sels.length; k++) {
        const s = sels[k] as number;
        const pages = c.pages[s];
        if (pages !== null && pages?.[pg] !== 1) continue;
        if (c.isExclusion[s] === 1) x |= c.bits[s] as number;
        else m |= c.bits[s] as number;
      }
    }
    // The ordered funnels but strict read only what matches a step or an exclusion (funnel.ts matchingEvents).
    if (!c.strict && (m | x) === 0) continue;
    pushEvent(at, m, x, "");
  }
}

/** One visitor, from `a` (and `b`, the fresh part, when given): their outcome into `out`, if they entered. */
function visitor(
  c: Compiled,
  plan: FunnelPlan,
  out: FunnelOutcomes,
  a: Timeline,
  va: number,
  b: Timeline | null,
  vb: number,
  entered: boolean,
): void {
  first = Number.POSITIVE_INFINITY;
  last = Number.NEGATIVE_INFINITY;
  // A visitor the postings found has a counted step-1 event: their span only narrows what is
  // loaded, and nothing outside it changes an outcome (funnel.ts), so it is not looked for.
  if (!entered) {
    stepOneSpan(c, a, va);
    if (b !== null) stepOneSpan(c, b, vb);
    if (first === Number.POSITIVE_INFINITY) return;
  }
  const span = !entered && plan.order !== "any";
  const until = last + plan.windowMs;
  beginVisitor();
  loadVisitor(c, a, va, span, until);
  if (b !== null) loadVisitor(c, b, vb, span, until);
  finishVisitor(plan, out);
}

/**
 * Per base visitor, whether they may enter (1): one of their counted events matches step 1, found
 * through the postings of step 1's name and pages rather than by reading every event (at 10M
 * events most visitors never do step 1); and every visitor with fresh events, whose step 1 may lie there.
 */
function stepOneVisitors(c: Compiled, tl: Timeline, ix: TimelinePostings, alsoFresh: Map<number, number>): Uint8Array {
  const marked = new Uint8Array(tl.keys.length);
  for (const v of alsoFresh.keys()) marked[v] = 1;
  if (c.firstName < 0) return marked;
  // The first combo of step 1's name (combos are sorted by name).
  let lo = 0;
  let hi = ix.comboName.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ix.comboName[mid] as number) < c.firstName) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < ix.comboName.length && ix.comboName[k] === c.firstName; k++) {
    if (c.firstPages !== null && c.firstPages[ix.comboPage[k] as number] !== 1) continue;
    const end = ix.comboStart[k + 1] as number;
    for (let j = ix.comboStart[k] as number; j < end; j++) {
      const e = ix.positions[j] as number;
      if (counts(c, tl, e)) marked[ix.visitorOf[e] as number] = 1;
    }
  }
  return marked;
}

/**
 * Each visitor's outcome (FunnelOutcomes, as funnelOutcomesOfPacks gives them) from `base` and
 * `fresh`, the events appended since base was read: a visitor in both is read from both.
 */
export function timelineFunnelOutcomes(q: TimelineFunnel, base: Timeline, fresh: Timeline): FunnelOutcomes;
/** With `withKeys`: also each outcome's visitor key (outcome i is visitor keys[i]'s), for the visitors of a step. */
export function timelineFunnelOutcomes(
  q: TimelineFunnel,
  base: Timeline,
  fresh: Timeline,
  withKeys: true,
): { outcomes: FunnelOutcomes; keys: bigint[] };
export function timelineFunnelOutcomes(
  q: TimelineFunnel,
  base: Timeline,
  fresh: Timeline,
  withKeys = false,
): FunnelOutcomes | { outcomes: FunnelOutcomes; keys: bigint[] } {
  const c = compile(q);
  const { alsoFresh, freshOnly } = pairFresh(base, fresh);
  const candidates = base.postings ? stepOneVisitors(c, base, base.postings, alsoFresh) : null;
  let expected = fresh.keys.length;
  if (candidates !== null) for (let v = 0; v < candidates.length; v++) expected += candidates[v] as number;
  // The SQL path's limit, so that both refuse the same funnels.
  if (expected >= FUNNEL_MAX_ROWS) tooManyVisitors();
  const out = new FunnelOutcomes(q.plan.labels.length, q.plan.order !== "any", candidates === null ? 1024 : expected);
  const keys: bigint[] = [];
  for (let v = 0; v < base.keys.length; v++) {
    if (candidates !== null && candidates[v] === 0) continue;
    const f = alsoFresh.size > 0 ? alsoFresh.get(v) : undefined;
    const before = out.count;
    visitor(c, q.plan, out, base, v, f === undefined ? null : fresh, f ?? 0, candidates !== null && f === undefined);
    if (withKeys && out.count > before) keys.push(base.keys[v] as bigint);
  }
  for (const f of freshOnly) {
    const before = out.count;
    visitor(c, q.plan, out, fresh, f, null, 0, false);
    if (withKeys && out.count > before) keys.push(fresh.keys[f] as bigint);
  }
  return withKeys ? { outcomes: out, keys } : out;
}
