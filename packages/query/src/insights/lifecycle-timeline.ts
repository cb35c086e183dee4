// Lifecycle from visitor timelines (timeline.ts: the layout): per visitor, the grid intervals in
// which they did the event (after the filters, all on the page) and the interval of their
// first-ever event (any event), counted into the rows the statement returns (lifecycle.ts states
// the rules), so shapeLifecycle finishes both alike. An event's interval is the grid interval
// whose local start it is at or after; events before the lookback's start or from the range's end
// on count for nothing but the first-ever event.
import type { LifecycleSpec } from "@lookout/schema";
import { timelineHoldsFilters } from "./funnel-timeline.js";
import type { LifecyclePlan, LifecycleRow } from "./lifecycle.js";
import { kept, pairFresh, selects, T_HI, type Timeline, type TimelinePairs, type TimelineSelector } from "./timeline.js";

/** Whether a timeline holds what the spec needs: every filter on a dimension it keeps. */
export function lifecycleTimelineCovers(spec: LifecycleSpec): boolean {
  return timelineHoldsFilters([spec.filters, spec.event.filters]);
}

/** A covered lifecycle spec, resolved against the store's names, pages and pairs. */
export interface TimelineLifecycle {
  plan: LifecyclePlan;
  event: TimelineSelector;
  /** Per page index, whether the global filters keep it (null: there are none). */
  keep: Uint8Array | null;
  pairs: TimelinePairs;
}

// The visitor being read: their active grid intervals (set within [lo, hi]) and first-ever event.
let active = new Uint8Array(64);
let lo = 0;
let hi = -1;
let firstAt = Number.POSITIVE_INFINITY;

function mark(starts: readonly number[], to: number, selected: Uint8Array, tl: Timeline, v: number): void {
  const { pair, tLo, tHi, t0 } = tl;
  const begin = tl.starts[v] as number;
  const end = tl.starts[v + 1] as number;
  if (begin < end) {
    // Events are in time order: the visitor's first in this part is its first row.
    const at = t0 + (tHi[begin] as number) * T_HI + (tLo[begin] as number);
    if (at < firstAt) firstAt = at;
  }
  const from = starts[0] as number;
  let k = -1;
  let next = Number.NEGATIVE_INFINITY;
  for (let i = begin; i < end; i++) {
    if (selected[pair[i] as number] !== 1) continue;
    const at = t0 + (tHi[i] as number) * T_HI + (tLo[i] as number);
    if (at < from || at >= to) continue;
    if (at >= next) {
      while (k + 1 < starts.length - 1 && (starts[k + 1] as number) <= at) k++;
      next = k + 1 < starts.length ? (starts[k + 1] as number) : Number.POSITIVE_INFINITY;
    }
    active[k] = 1;
    if (k < lo) lo = k;
    if (k > hi) hi = k;
  }
}

/** Each grid interval's counts (the statement's rows: new, returning, resurrecting, dormant) from `base` and `fresh`. */
export function timelineLifecycleRows(q: TimelineLifecycle, base: Timeline, fresh: Timeline): LifecycleRow[] {
  const { starts } = q.plan;
  const to = q.plan.range.to.getTime();
  const n = starts.length; // the grid's intervals and the one after it
  if (active.length < n + 1) active = new Uint8Array(2 * n + 1);
  const selected = new Uint8Array(q.pairs.name.length);
  for (let p = 0; p < selected.length; p++) {
    const name = q.pairs.name[p] as number;
    const page = q.pairs.page[p] as number;
    if (kept(q.keep, page) && selects(q.event, name, page)) selected[p] = 1;
  }
  const counts = Array.from({ length: n }, () => ({ new: 0, returning: 0, resurrecting: 0, dormant: 0 }));
  const { alsoFresh, freshOnly } = pairFresh(base, fresh);
  const visit = (a: Timeline, va: number, b: Timeline | null, vb: number) => {
    lo = n;
    hi = -1;
    firstAt = Number.POSITIVE_INFINITY;
    mark(starts, to, selected, a, va);
    if (b !== null) mark(starts, to, selected, b, vb);
    if (hi < 0) return;
    // The first-ever event's interval, when it lies in the grid (before the range's end).
    let first = -1;
    if (firstAt >= (starts[0] as number) && firstAt < to) {
      first = 0;
      while (first + 1 < n - 1 && (starts[first + 1] as number) <= firstAt) first++;
    }
    // Every interval the visitor is active in, and the one after each (where they may be dormant).
    for (let k = lo; k <= hi + 1 && k < n; k++) {
      const act = active[k] === 1;
      const was = k > 0 && active[k - 1] === 1;
      const c = counts[k] as { new: number; returning: number; resurrecting: number; dormant: number };
      if (act && first === k) c.new++;
      else if (act && was) c.returning++;
      else if (act) c.resurrecting++;
      else if (was) c.dormant++;
    }
    for (let k = lo; k <= hi; k++) active[k] = 0;
  };
  for (let v = 0; v < base.keys.length; v++) {
    const f = alsoFresh.size > 0 ? alsoFresh.get(v) : undefined;
    visit(base, v, f === undefined ? null : fresh, f ?? 0);
  }
  for (const f of freshOnly) visit(fresh, f, null, 0);
  return counts.map((c, idx) => ({ idx, ...c }));
}
