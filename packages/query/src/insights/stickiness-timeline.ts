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
import { selectedPairs, type Timeline, type TimelinePairs, type TimelineSelector } from "./timeline.js";
import { markIntervals, type TimelineDays, visitByDays } from "./timeline-days.js";

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
  /** The spec's timezone (the intervals are its local days). */
  timezone: string;
}

/** The local starts of the range's intervals (day, week or month), as the statement buckets them. */
export function stickinessStarts(spec: StickinessSpec, plan: StickinessPlan, ctx: CompileContext): Float64Array {
  const range = resolveDateRange(insightDateRange(spec), ctx);
  return Float64Array.from(bucketLabels(range, plan.unit, ctx.timezone), (label) => startOfDay(ctx.timezone, parseDay(label)));
}

/**
 * Visitors per number of intervals with the event (n >= 1), from `base` and `fresh` (the events
 * appended since base was read) and their events' local days in the spec's timezone; null when
 * the intervals are not whole local days there (SQL answers).
 */
export function timelineStickinessRows(
  q: TimelineStickiness,
  base: Timeline,
  freshPart: Timeline,
  days: { base: TimelineDays; fresh: TimelineDays },
): StickinessRow[] | null {
  const n = q.starts.length;
  const bounds = { starts: q.starts, last: n - 1, from: q.from, to: q.to };
  const selected = selectedPairs(q.pairs, q.keep, q.event);
  const marks = new Uint8Array(n);
  const counts = new Array<number>(n + 1).fill(0);
  const range = new Int32Array(2);
  const walked = visitByDays(base, freshPart, days, q.timezone, bounds, (a, va, fresh, vf) => {
    range[0] = n;
    range[1] = -1;
    markIntervals(
      a.tl.pair,
      a.days.day,
      a.grid,
      selected,
      marks,
      a.tl.starts[va] as number,
      a.tl.starts[va + 1] as number,
      range,
    );
    if (vf >= 0)
      markIntervals(
        fresh.tl.pair,
        fresh.days.day,
        fresh.grid,
        selected,
        marks,
        fresh.tl.starts[vf] as number,
        fresh.tl.starts[vf + 1] as number,
        range,
      );
    if ((range[1] as number) < 0) return;
    let c = 0;
    for (let k = range[0] as number; k <= (range[1] as number); k++) {
      c += marks[k] as number;
      marks[k] = 0;
    }
    counts[c] = (counts[c] as number) + 1;
  });
  if (!walked) return null;
  const rows: StickinessRow[] = [];
  for (let c = 1; c <= n; c++) if ((counts[c] as number) > 0) rows.push({ intervals: c, visitors: counts[c] as number });
  return rows;
}
