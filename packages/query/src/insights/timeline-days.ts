// Each event's local day in one timezone, for the grid passes over visitor timelines whose
// intervals are whole local days (lifecycle, stickiness: days, weeks, months from local
// midnights): a pass reads two bytes an event and a table from day to interval instead of placing
// each event's instant among the grid's starts (at 10M events about 0.1 s against 0.45-0.8). The
// store's timelines keep a base's days for the last timezone asked (timelines.ts).
import { midnightAtOrBefore } from "../day-rollup.js";
import { offsetMinutes, offsetSegments } from "../tz.js";
import { freshLikeBase, freshOfBase, pairFresh, T_HI, type Timeline } from "./timeline.js";

const DAY = 86_400_000;
const MINUTE = 60_000;

/** Event i's local day number (days since 1970-01-01 in local wall time) is first + day[i]; every day[i] < span. */
export interface TimelineDays {
  first: number;
  span: number;
  day: Uint16Array;
}

/** The local days of a timeline's events in `tz`. */
export function timelineDays(tl: Timeline, tz: string): TimelineDays {
  const n = tl.tLo.length;
  if (n === 0) return { first: 0, span: 0, day: new Uint16Array(0) };
  let maxHi = 0;
  for (let i = 0; i < n; i++) if ((tl.tHi[i] as number) > maxHi) maxHi = tl.tHi[i] as number;
  // Over whole UTC days, so that the fresh parts read again and again find the offsets computed.
  const segments = offsetSegments(tz, Math.floor(tl.t0 / DAY) * DAY, (Math.floor((tl.t0 + (maxHi + 1) * T_HI) / DAY) + 1) * DAY);
  const until = segments.map((s) => s.untilMs ?? Number.POSITIVE_INFINITY);
  const offset = segments.map((s) => s.offsetMinutes * MINUTE);
  // A day before the first instant's, so that a negative offset stays at or above it.
  const first = Math.floor(tl.t0 / DAY) - 1;
  const day = new Uint16Array(n);
  let span = 0;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const at = tl.t0 + (tl.tHi[i] as number) * T_HI + (tl.tLo[i] as number);
    // Visitors follow each other in key order, not time order: the segment moves both ways.
    while (at >= (until[s] as number)) s++;
    while (s > 0 && at < (until[s - 1] as number)) s--;
    const d = Math.floor((at + (offset[s] as number)) / DAY) - first;
    day[i] = d;
    if (d >= span) span = d + 1;
  }
  return { first, span, day };
}

/**
 * Per day of `days` (its index), the grid interval an event that day counts in: the last k <= last
 * with starts[k] at or before it, for days in [from, to); -1 for the rest. Null when a bound is
 * not a local midnight in `tz` (a day would straddle it): the caller answers another way.
 */
export function dayIntervals(
  days: TimelineDays,
  tz: string,
  grid: { starts: ArrayLike<number>; last: number; from: number; to: number },
): Int32Array | null {
  const bounds = [grid.from, grid.to, ...Array.from({ length: grid.last + 1 }, (_, k) => grid.starts[k] as number)];
  if (bounds.some((b) => midnightAtOrBefore(tz, b) !== b)) return null;
  const dayOf = (midnight: number) => Math.floor((midnight + offsetMinutes(tz, midnight) * MINUTE) / DAY);
  const fromDay = dayOf(grid.from);
  const toDay = dayOf(grid.to);
  const startDay = bounds.slice(2).map(dayOf);
  const out = new Int32Array(days.span).fill(-1);
  let k = -1;
  for (let i = 0; i < days.span; i++) {
    const d = days.first + i;
    while (k + 1 <= grid.last && (startDay[k + 1] as number) <= d) k++;
    if (d >= fromDay && d < toDay) out[i] = k;
  }
  return out;
}

/**
 * Marks in `marks` the grid interval of each event of [begin, end) whose pair is selected (its
 * local day through `grid`); range[0] and range[1] narrow to the lowest and highest marked.
 */
export function markIntervals(
  pair: Uint16Array | Int32Array,
  day: Uint16Array,
  grid: Int32Array,
  selected: Uint8Array,
  marks: Uint8Array,
  begin: number,
  end: number,
  range: Int32Array,
): void {
  for (let i = begin; i < end; i++) {
    if (selected[pair[i] as number] !== 1) continue;
    const k = grid[day[i] as number] as number;
    if (k < 0) continue;
    marks[k] = 1;
    if (k < (range[0] as number)) range[0] = k;
    if (k > (range[1] as number)) range[1] = k;
  }
}

/** One part of the timelines a pass walks: its events, their local days and each day's grid interval. */
export interface DayPart {
  tl: Timeline;
  days: TimelineDays;
  grid: Int32Array;
}

/**
 * Walks each visitor once over `base` and `freshPart` (the events appended since base was read):
 * `visit(part, v, fresh, vf)` with the visitor's index in `part` and in the fresh part (-1: none
 * there), their events' intervals through the grid of `bounds` (dayIntervals). False, visiting
 * no one, when the grid is not of whole local days in `tz` (the caller answers by SQL).
 */
export function visitByDays(
  base: Timeline,
  freshPart: Timeline,
  days: { base: TimelineDays; fresh: TimelineDays },
  tz: string,
  bounds: Parameters<typeof dayIntervals>[2],
  visit: (part: DayPart, v: number, fresh: DayPart, vf: number) => void,
): boolean {
  const baseGrid = dayIntervals(days.base, tz, bounds);
  const freshGrid = dayIntervals(days.fresh, tz, bounds);
  if (baseGrid === null || freshGrid === null) return false;
  const fresh: DayPart = { tl: freshLikeBase(base, freshPart), days: days.fresh, grid: freshGrid };
  const basePart: DayPart = { tl: base, days: days.base, grid: baseGrid };
  const { alsoFresh, freshOnly } = pairFresh(base, fresh.tl);
  const freshOf = freshOfBase(base, alsoFresh);
  for (let v = 0; v < base.keys.length; v++) visit(basePart, v, fresh, freshOf[v] as number);
  for (const f of freshOnly) visit(fresh, f, fresh, -1);
  return true;
}
