// Stickiness from visitor timelines (timeline.ts: the layout): per visitor, the number of distinct
// local intervals of the range in which they did the event (after the filters, all on the page),
// then visitors per number: the rows the SQL statement returns (stickiness.ts), so shapeStickiness
// finishes both alike. An event's interval is the one whose local start it is at or after, as
// the statement's bucket says it.
import type { StickinessSpec } from "@lookout/schema";
import { insightDateRange } from "@lookout/schema";
import { bucketLabels } from "../buckets.js";
import type { CompileContext } from "../compiled.js";
import { resolveDateRange } from "../date-range.js";
import { parseDay, startOfDay } from "../tz.js";
import { timelineHoldsFilters } from "./funnel-timeline.js";
import type { StickinessPlan, StickinessRow } from "./stickiness.js";
import { kept, pairFresh, selects, T_HI, type Timeline, type TimelinePairs, type TimelineSelector } from "./timeline.js";

/** Whether a timeline holds what the spec needs: every filter on a dimension it keeps. */
export function stickinessTimelineCovers(spec: StickinessSpec): boolean {
  return timelineHoldsFilters([spec.filters, spec.event.filters]);
}

/** A covered stickiness spec, resolved against the store's names, pages and pairs. */
export interface TimelineStickiness {
  plan: StickinessPlan;
  /** The range, epoch ms [from, to). */
  from: number;
  to: number;
  /** The range's intervals' local starts (epoch ms), ascending. */
  starts: Float64Array;
  event: TimelineSelector;
  /** Per page index, whether the global filters keep it (null: there are none). */
  keep: Uint8Array | null;
  pairs: TimelinePairs;
}

/** The local starts of the range's intervals (day, week or month), as the statement buckets them. */
export function stickinessStarts(spec: StickinessSpec, plan: StickinessPlan, ctx: CompileContext): Float64Array {
  const range = resolveDateRange(insightDateRange(spec), ctx);
  return Float64Array.from(bucketLabels(range, plan.unit, ctx.timezone), (label) => startOfDay(ctx.timezone, parseDay(label)));
}

// The visitor being read: a mark per interval index, set within [lo, hi].
let marks = new Uint8Array(64);
let lo = 0;
let hi = -1;

function mark(q: TimelineStickiness, selected: Uint8Array, tl: Timeline, v: number): void {
  const { pair, tLo, tHi, t0 } = tl;
  const { starts, from, to } = q;
  const end = tl.starts[v + 1] as number;
  // A visitor's events are in time order: their interval only moves on.
  let k = -1;
  let next = Number.NEGATIVE_INFINITY;
  for (let i = tl.starts[v] as number; i < end; i++) {
    if (selected[pair[i] as number] !== 1) continue;
    const at = t0 + (tHi[i] as number) * T_HI + (tLo[i] as number);
    if (at < from || at >= to) continue;
    if (at >= next) {
      while (k + 1 < starts.length && (starts[k + 1] as number) <= at) k++;
      next = k + 1 < starts.length ? (starts[k + 1] as number) : Number.POSITIVE_INFINITY;
    }
    if (k < 0) continue;
    marks[k] = 1;
    if (k < lo) lo = k;
    if (k > hi) hi = k;
  }
}

/** Visitors per number of intervals with the event (n >= 1), from `base` and `fresh`, the events appended since base was read. */
export function timelineStickinessRows(q: TimelineStickiness, base: Timeline, fresh: Timeline): StickinessRow[] {
  const n = q.starts.length;
  if (marks.length < n) marks = new Uint8Array(2 * n);
  const selected = new Uint8Array(q.pairs.name.length);
  for (let p = 0; p < selected.length; p++) {
    const name = q.pairs.name[p] as number;
    const page = q.pairs.page[p] as number;
    if (kept(q.keep, page) && selects(q.event, name, page)) selected[p] = 1;
  }
  const counts = new Array<number>(n + 1).fill(0);
  const { alsoFresh, freshOnly } = pairFresh(base, fresh);
  const visit = (a: Timeline, va: number, b: Timeline | null, vb: number) => {
    lo = n;
    hi = -1;
    mark(q, selected, a, va);
    if (b !== null) mark(q, selected, b, vb);
    if (hi < 0) return;
    let c = 0;
    for (let k = lo; k <= hi; k++) {
      c += marks[k] as number;
      marks[k] = 0;
    }
    counts[c] = (counts[c] as number) + 1;
  };
  for (let v = 0; v < base.keys.length; v++) {
    const f = alsoFresh.size > 0 ? alsoFresh.get(v) : undefined;
    visit(base, v, f === undefined ? null : fresh, f ?? 0);
  }
  for (const f of freshOnly) visit(fresh, f, null, 0);
  const rows: StickinessRow[] = [];
  for (let c = 1; c <= n; c++) if ((counts[c] as number) > 0) rows.push({ intervals: c, visitors: counts[c] as number });
  return rows;
}
