// Lifecycle from visitor timelines (timeline.ts: the layout): per visitor, the grid intervals in
// which they did the event (after the filters, all on the page) and the interval of their
// first-ever event (any event), counted into the rows the statement returns (lifecycle.ts states
// the rules), so shapeLifecycle finishes both alike. An event's interval is the grid interval
// whose local start it is at or after; events before the lookback's start or from the range's end
// on count for nothing but the first-ever event.
import type { LifecycleSpec } from "@lookout/schema";
import { timelineHoldsFilters } from "./funnel-timeline.js";
import type { LifecyclePlan, LifecycleRow } from "./lifecycle.js";
import { selectedPairs, type Timeline, type TimelinePairs, type TimelineSelector } from "./timeline.js";
import { markIntervals, type TimelineDays, visitByDays } from "./timeline-days.js";

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
  /** The spec's timezone (the grid's intervals are its local days). */
  timezone: string;
}

/** A visitor's part (begin, end) marked in `active`: range[0], range[1] the lowest and highest interval set, range[2] the interval of its first event (any), range[3] that event's day. */
function mark(
  pair: Uint16Array | Int32Array,
  days: TimelineDays,
  grid: Int32Array,
  selected: Uint8Array,
  active: Uint8Array,
  begin: number,
  end: number,
  range: Int32Array,
): void {
  const day = days.day;
  if (begin < end) {
    // Events are in time order: the visitor's first in this part is its first row.
    const first = days.first + (day[begin] as number);
    if (first < (range[3] as number)) {
      range[3] = first;
      range[2] = grid[day[begin] as number] as number;
    }
  }
  markIntervals(pair, day, grid, selected, active, begin, end, range);
}

/**
 * Each grid interval's counts (the statement's rows: new, returning, resurrecting, dormant) from
 * `base` and `fresh` and their events' local days in the spec's timezone; null when the grid is
 * not of whole local days there (SQL answers).
 */
export function timelineLifecycleRows(
  q: TimelineLifecycle,
  base: Timeline,
  freshPart: Timeline,
  days: { base: TimelineDays; fresh: TimelineDays },
): LifecycleRow[] | null {
  const { starts } = q.plan;
  const n = starts.length; // the grid's intervals and the one after it
  // An event counts in the last interval that starts at or before it (not the one after the grid), within the range.
  const bounds = { starts, last: n - 2, from: starts[0] as number, to: q.plan.range.to.getTime() };
  const selected = selectedPairs(q.pairs, q.keep, q.event);
  const active = new Uint8Array(n + 1);
  // Per interval: new, returning, resurrecting, dormant.
  const counts = new Int32Array(4 * n);
  const range = new Int32Array(4);
  const walked = visitByDays(base, freshPart, days, q.timezone, bounds, (a, va, fresh, vf) => {
    range[0] = n;
    range[1] = -1;
    range[2] = -1;
    range[3] = 0x7fffffff;
    mark(a.tl.pair, a.days, a.grid, selected, active, a.tl.starts[va] as number, a.tl.starts[va + 1] as number, range);
    if (vf >= 0)
      mark(
        fresh.tl.pair,
        fresh.days,
        fresh.grid,
        selected,
        active,
        fresh.tl.starts[vf] as number,
        fresh.tl.starts[vf + 1] as number,
        range,
      );
    const lo = range[0] as number;
    const hi = range[1] as number;
    if (hi < 0) return;
    // The first-ever event's interval (-1 when it lies outside the grid, before the range's end).
    const first = range[2] as number;
    // Every interval the visitor is active in, and the one after each (where they may be dormant).
    for (let k = lo; k <= hi + 1 && k < n; k++) {
      const act = active[k] === 1;
      const was = k > 0 && active[k - 1] === 1;
      const at = act && first === k ? 0 : act && was ? 1 : act ? 2 : was ? 3 : -1;
      if (at >= 0) counts[4 * k + at] = (counts[4 * k + at] as number) + 1;
    }
    for (let k = lo; k <= hi; k++) active[k] = 0;
  });
  if (!walked) return null;
  return Array.from({ length: n }, (_, idx) => ({
    idx,
    new: counts[4 * idx] as number,
    returning: counts[4 * idx + 1] as number,
    resurrecting: counts[4 * idx + 2] as number,
    dormant: counts[4 * idx + 3] as number,
  }));
}
