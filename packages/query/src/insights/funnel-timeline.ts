// Funnels from visitor timelines (timeline.ts: the layout; the DuckDB store keeps them, @lookout/storage
// duckdb-timelines.ts), the layout Mixpanel's event store keeps per user so that a funnel is one
// pass over each user's events. The SQL path (funnel.ts) spends most of its time scanning, joining
// and packing rows before funnel-eval.ts sees them; here the same evaluator reads the events where they lie.
//
// The same definition as the SQL path, step for step: an event counts when it lies in the range
// and passes the global filters, and none of FUNNEL_IGNORED_EVENTS is read; a visitor is evaluated
// when one of their counted events matches step 1 (found through the postings, or by a scan of the
// pairs where a timeline keeps none); a strict funnel considers every counted event, the others
// those matching a step or an exclusion. The SQL path also drops the events outside the first
// step-1 event and the last one's window's end; nothing there changes an outcome (funnel.ts).
// Which specs a timeline answers is decided here (timelineCovers).
import type { FunnelSpec } from "@lookout/schema";
import { parseFilters } from "@lookout/schema";
import type { CompiledQuery } from "../compiled.js";
import { DIALECTS, type SqlDialect } from "../dialects.js";
import { Params } from "../params.js";
import { FUNNEL_MAX_ROWS, type FunnelPlan } from "./funnel.js";
import { beginVisitor, finishVisitor, pushEvent, tooManyVisitors } from "./funnel-eval.js";
import { FunnelOutcomes } from "./funnel-outcomes.js";
import {
  kept,
  pairFresh,
  selects,
  T_HI,
  type Timeline,
  type TimelinePairs,
  type TimelinePostings,
  type TimelineSelector,
} from "./timeline.js";
import { eventCondition } from "./trends.js";

/** The only dimension a timeline holds besides the event's name: filters on any other one go to SQL. */
export const TIMELINE_DIMENSIONS: readonly string[] = ["page"];

/** Whether a timeline holds what the spec needs: no breakdown, every filter on a dimension it keeps. */
export function timelineCovers(spec: FunnelSpec): boolean {
  if (spec.breakdown !== undefined) return false;
  return timelineHoldsFilters([spec.filters, ...spec.steps.map((s) => s.filters), ...spec.exclusions.map((x) => x.filters)]);
}

/**
 * Which of a list of pages pass a filters text (every filter on `page`: timelineCovers), as the
 * engine says it: the indices (from 0) of those that pass. The condition is the SQL path's own
 * (eventCondition), so both agree to the letter; every page is a bound value.
 */
export function timelinePagesSql(text: string, dialect: SqlDialect, pages: readonly string[]): CompiledQuery {
  const d = DIALECTS[dialect];
  const p = new Params(d);
  const cond = parseFilters(text)
    .map((f) => eventCondition(f, p, d))
    .join(" AND ");
  const list = `[${pages.map((v) => p.add(v)).join(", ")}]`;
  const sql =
    `SELECT n - 1 AS i FROM (SELECT n, vals[n] AS path FROM (SELECT vals, ${d.unnest(d.positions("vals"))} AS n ` +
    `FROM (SELECT ${list} AS vals))) WHERE ${cond || "1 = 1"}`;
  return { sql, params: p.usedIn(sql) };
}

/** A covered funnel spec, resolved against the store's names, pages and pairs. */
export interface TimelineFunnel {
  plan: FunnelPlan;
  steps: TimelineSelector[];
  exclusions: TimelineSelector[];
  /** Per page index, whether the global filters keep it (null: there are none). */
  keep: Uint8Array | null;
  /** Per name index, whether the funnel never reads the event (FUNNEL_IGNORED_EVENTS). */
  ignored: Uint8Array;
  /** Every pair the base and fresh timelines hold. */
  pairs: TimelinePairs;
}

/** Whether every filter of these texts is on a dimension the timelines hold. */
export function timelineHoldsFilters(texts: readonly (string | undefined)[]): boolean {
  return texts.every((text) => parseFilters(text ?? "").every((f) => TIMELINE_DIMENSIONS.includes(f.dimension)));
}

/** Per query, what each pair means to the funnel, and the range. */
interface Compiled {
  /** Per pair: its events count (the global filters keep its page, its name is not ignored). */
  ok: Uint8Array;
  /** Per pair: the bits of the steps (m) and of the exclusions (x) it matches. */
  m: Int32Array;
  x: Int32Array;
  /** Per pair: it counts and matches step 1. */
  first: Uint8Array;
  strict: boolean;
  from: number;
  to: number;
}

function compile(q: TimelineFunnel): Compiled {
  const n = q.pairs.name.length;
  const c: Compiled = {
    ok: new Uint8Array(n),
    m: new Int32Array(n),
    x: new Int32Array(n),
    first: new Uint8Array(n),
    strict: q.plan.order === "strict",
    from: q.plan.range.from.getTime(),
    to: q.plan.range.to.getTime(),
  };
  for (let p = 0; p < n; p++) {
    const name = q.pairs.name[p] as number;
    const page = q.pairs.page[p] as number;
    if (!kept(q.keep, page) || q.ignored[name] === 1) continue;
    c.ok[p] = 1;
    q.steps.forEach((s, i) => {
      if (selects(s, name, page)) c.m[p] = (c.m[p] as number) | (1 << i);
    });
    q.exclusions.forEach((s, i) => {
      if (selects(s, name, page)) c.x[p] = (c.x[p] as number) | (1 << i);
    });
    c.first[p] = (c.m[p] as number) & 1;
  }
  return c;
}

// The span of the visitor being read: their first and last counted step-1 event (none: +Infinity).
let first = Number.POSITIVE_INFINITY;
let last = Number.NEGATIVE_INFINITY;

/** Widens the span by tl's visitor v's step-1 events (the cheap pass: most visitors have none). */
function stepOneSpan(c: Compiled, tl: Timeline, v: number): void {
  const { pair, tLo, tHi, t0 } = tl;
  const end = tl.starts[v + 1] as number;
  for (let i = tl.starts[v] as number; i < end; i++) {
    if (c.first[pair[i] as number] !== 1) continue;
    const at = t0 + (tHi[i] as number) * T_HI + (tLo[i] as number);
    if (at < c.from || at >= c.to) continue;
    if (at < first) first = at;
    if (at > last) last = at;
  }
}

/** Loads tl's visitor v's events that the evaluation reads (funnel-eval.ts pushEvent): counted, within the span, matching something unless strict. */
function loadVisitor(c: Compiled, tl: Timeline, v: number, span: boolean, until: number): void {
  const { pair, tLo, tHi, t0 } = tl;
  const { ok, m: ms, x: xs, strict, from, to } = c;
  const end = tl.starts[v + 1] as number;
  for (let i = tl.starts[v] as number; i < end; i++) {
    const p = pair[i] as number;
    if (ok[p] !== 1) continue;
    const m = ms[p] as number;
    const x = xs[p] as number;
    // The ordered funnels but strict read only what matches a step or an exclusion (funnel.ts matchingEvents).
    if (!strict && (m | x) === 0) continue;
    const at = t0 + (tHi[i] as number) * T_HI + (tLo[i] as number);
    if (at < from || at >= to || (span && (at < first || at > until))) continue;
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
  // A visitor found to enter has a counted step-1 event: their span only narrows what is loaded,
  // and nothing outside it changes an outcome (funnel.ts), so it is not looked for.
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
 * Per base visitor, whether they enter (1): one of their counted events matches step 1, found
 * through the postings of step 1's pairs where the timeline keeps them (at 10M events most
 * visitors never do step 1), else by one pass over the pairs; and every visitor with fresh
 * events, whose step 1 may lie there.
 */
function stepOneVisitors(c: Compiled, tl: Timeline, alsoFresh: Map<number, number>): Uint8Array {
  const marked = new Uint8Array(tl.keys.length);
  for (const v of alsoFresh.keys()) marked[v] = 1;
  const { pair, tLo, tHi, t0 } = tl;
  const inRange = (i: number) => {
    const at = t0 + (tHi[i] as number) * T_HI + (tLo[i] as number);
    return at >= c.from && at < c.to;
  };
  const ix: TimelinePostings | undefined = tl.postings;
  if (ix !== undefined) {
    for (let p = 0; p < c.first.length && p + 1 < ix.pairStart.length; p++) {
      if (c.first[p] !== 1) continue;
      const end = ix.pairStart[p + 1] as number;
      for (let j = ix.pairStart[p] as number; j < end; j++) {
        const e = ix.positions[j] as number;
        if (inRange(e)) marked[ix.visitorOf[e] as number] = 1;
      }
    }
    return marked;
  }
  for (let v = 0; v < tl.keys.length; v++) {
    const end = tl.starts[v + 1] as number;
    for (let i = tl.starts[v] as number; i < end; i++) {
      if (c.first[pair[i] as number] === 1 && inRange(i)) {
        marked[v] = 1;
        break;
      }
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
  const candidates = stepOneVisitors(c, base, alsoFresh);
  let expected = fresh.keys.length;
  for (let v = 0; v < candidates.length; v++) expected += candidates[v] as number;
  // The SQL path's limit, so that both refuse the same funnels.
  if (expected >= FUNNEL_MAX_ROWS) tooManyVisitors();
  const out = new FunnelOutcomes(q.plan.labels.length, q.plan.order !== "any", expected);
  const keys: bigint[] = [];
  for (let v = 0; v < base.keys.length; v++) {
    if (candidates[v] === 0) continue;
    const f = alsoFresh.size > 0 ? alsoFresh.get(v) : undefined;
    const before = out.count;
    visitor(c, q.plan, out, base, v, f === undefined ? null : fresh, f ?? 0, f === undefined);
    if (withKeys && out.count > before) keys.push(base.keys[v] as bigint);
  }
  for (const f of freshOnly) {
    const before = out.count;
    visitor(c, q.plan, out, fresh, f, null, 0, false);
    if (withKeys && out.count > before) keys.push(fresh.keys[f] as bigint);
  }
  return withKeys ? { outcomes: out, keys } : out;
}
