// Retention from visitor timelines (timeline.ts: the layout): per visitor, the grid's periods with a start event and with a return event, read
// from their events where they lie, and counted into cells by the rules the counting statement
// follows (retention.ts: retentionCells states them). The same marks as the SQL's: a start event
// counts in [range.from, range.to), a return event in [range.from, readTo), both after the global
// filters; an event's period is the grid period whose local start it is at or after.
import type { RetentionSpec } from "@lookout/schema";
import { parseDay, startOfDay } from "../tz.js";
import { timelineHoldsFilters } from "./funnel-timeline.js";
import { kept, pairFresh, selects, T_HI, type Timeline, type TimelinePairs, type TimelineSelector } from "./timeline.js";
import type { RetentionPlan } from "./retention.js";

/** Whether a timeline holds what the spec needs: every filter on a dimension it keeps. */
export function retentionTimelineCovers(spec: RetentionSpec): boolean {
  return timelineHoldsFilters([spec.filters, spec.start_event.filters, spec.return_event.filters]);
}

/** A covered retention spec, resolved against the store's names and pages. */
export interface TimelineRetention {
  plan: RetentionPlan;
  /** The grid periods' local starts (epoch ms), one per plan.grid label. */
  starts: Float64Array;
  start: TimelineSelector;
  ret: TimelineSelector;
  /** Per page index, whether the global filters keep it (null: there are none). */
  keep: Uint8Array | null;
  /** Every pair the base and fresh timelines hold. */
  pairs: TimelinePairs;
}

/** The grid periods' starts as instants, in the plan's timezone. */
export function retentionGridStarts(plan: RetentionPlan, timezone: string): Float64Array {
  return Float64Array.from(plan.grid, (label) => startOfDay(timezone, parseDay(label)));
}

/** The grid index of instant t (-1 before the grid). */
function periodOf(starts: Float64Array, t: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  if (t < (starts[0] as number)) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// The visitor being read: their start and return marks per grid index, set within [lo, hi].
let startMark = new Uint8Array(64);
let returnMark = new Uint8Array(64);
let lo = 0;
let hi = -1;

/** Per query: per pair, whether its events are start events (1) and return events (2), after the global filters; and the range. */
interface Read {
  role: Uint8Array;
  starts: Float64Array;
  from: number;
  to: number;
  readTo: number;
  cohorts: number;
}

const START = 1;
const RETURN = 2;

function roles(q: TimelineRetention): Uint8Array {
  const n = q.pairs.name.length;
  const role = new Uint8Array(n);
  for (let p = 0; p < n; p++) {
    const name = q.pairs.name[p] as number;
    const page = q.pairs.page[p] as number;
    if (!kept(q.keep, page)) continue;
    role[p] = (selects(q.start, name, page) ? START : 0) | (selects(q.ret, name, page) ? RETURN : 0);
  }
  return role;
}

function mark(r: Read, tl: Timeline, v: number): void {
  const { pair, tLo, tHi, t0 } = tl;
  const { role, starts, from, to, readTo, cohorts } = r;
  const end = tl.starts[v + 1] as number;
  // A visitor's events are in time order (the fresh part's too), so their period only moves on:
  // found by stepping from the last one rather than searched for each event.
  let k = -2;
  let next = Number.NEGATIVE_INFINITY;
  for (let i = tl.starts[v] as number; i < end; i++) {
    const is = role[pair[i] as number] as number;
    if (is === 0) continue;
    const at = t0 + (tHi[i] as number) * T_HI + (tLo[i] as number);
    if (at < from || at >= readTo) continue;
    if (at >= next) {
      if (k === -2) k = periodOf(starts, at);
      while (k + 1 < starts.length && (starts[k + 1] as number) <= at) k++;
      next = k + 1 < starts.length ? (starts[k + 1] as number) : Number.POSITIVE_INFINITY;
    }
    if (k < 0) continue;
    let hit = false;
    if ((is & START) !== 0 && at < to && k < cohorts) {
      startMark[k] = 1;
      hit = true;
    }
    if ((is & RETURN) !== 0) {
      returnMark[k] = 1;
      hit = true;
    }
    if (hit) {
      if (k < lo) lo = k;
      if (k > hi) hi = k;
    }
  }
}

/** The marked visitor counted into `cells` (their cohorts: the first start's, or each start's when recurring). */
function count(plan: RetentionPlan, cells: number[][], cohorts: number): void {
  const last = Math.min(hi, cohorts - 1);
  for (let c = lo; c <= last; c++) {
    if (startMark[c] !== 1) continue;
    const row = cells[c] as number[];
    row[0] = (row[0] as number) + 1;
    if (plan.cumulative) {
      // "On or after": counted in 1..n where n is the latest period with a return.
      let latest = 0;
      for (let n = plan.periods; n >= 1 && latest === 0; n--) if (returnMark[c + n] === 1) latest = n;
      for (let n = 1; n <= latest; n++) row[n] = (row[n] as number) + 1;
    } else {
      for (let n = 1; n <= plan.periods; n++) if (returnMark[c + n] === 1) row[n] = (row[n] as number) + 1;
    }
    if (!plan.recurring) break;
  }
}

/** Each cohort's size and cells (as retentionCells gives them) from `base` and `fresh`, the events appended since base was read. */
export function timelineRetentionCells(q: TimelineRetention, base: Timeline, fresh: Timeline): number[][] {
  const { plan } = q;
  const cohorts = plan.cohorts.length;
  const grid = plan.grid.length;
  if (startMark.length < grid + 1) {
    startMark = new Uint8Array(2 * grid + 1);
    returnMark = new Uint8Array(2 * grid + 1);
  }
  const cells = plan.cohorts.map(() => new Array<number>(plan.periods + 1).fill(0));
  const r: Read = {
    role: roles(q),
    starts: q.starts,
    from: plan.range.from.getTime(),
    to: plan.range.to.getTime(),
    readTo: plan.readTo,
    cohorts,
  };
  const { alsoFresh, freshOnly } = pairFresh(base, fresh);
  const visit = (a: Timeline, va: number, b: Timeline | null, vb: number) => {
    lo = grid;
    hi = -1;
    mark(r, a, va);
    if (b !== null) mark(r, b, vb);
    if (hi < 0) return;
    count(plan, cells, cohorts);
    for (let k = lo; k <= hi; k++) {
      startMark[k] = 0;
      returnMark[k] = 0;
    }
  };
  for (let v = 0; v < base.keys.length; v++) {
    const f = alsoFresh.size > 0 ? alsoFresh.get(v) : undefined;
    visit(base, v, f === undefined ? null : fresh, f ?? 0);
  }
  for (const f of freshOnly) visit(fresh, f, null, 0);
  return cells;
}
