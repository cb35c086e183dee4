// Date presets -> [from, to) instants in the property's timezone (DESIGN.md §4), and the periods a
// comparison sets against them. Ranges are whole local days so that DST days are 23 or 25 hours
// long rather than shifted; "now" only matters for "which day is today" and for comparisons of a
// period that is still running.
import type { Comparison, DateRange } from "@lookout/schema";
import {
  addDays,
  addMonths,
  type Day,
  daysBetween,
  formatDay,
  instantOfWall,
  localDay,
  naiveOfDay,
  parseDay,
  startOfDay,
  wallMs,
} from "./tz.js";

export interface ResolvedRange {
  /** First instant inside the range. */
  from: Date;
  /** First instant after the range. */
  to: Date;
  /** The local calendar days covered, inclusive. */
  firstDay: string;
  lastDay: string;
}

export interface ComparisonRange extends ResolvedRange {
  /**
   * Where the comparison stops for totals: when the main range is still running, the same stretch
   * of the earlier period that has elapsed of this one (today until 14:05 vs yesterday until 14:05).
   * Equal to `to` otherwise. Charts use the whole period so that both lines span the same buckets.
   */
  elapsedTo: Date;
}

export interface RangeContext {
  timezone: string;
  now: Date;
  /** Where all_time starts (e.g. the property's creation); defaults to 1 January five years ago. */
  earliest?: Date | undefined;
}

function span(tz: string, first: Day, afterLast: Day): ResolvedRange {
  return {
    from: new Date(startOfDay(tz, first)),
    to: new Date(startOfDay(tz, afterLast)),
    firstDay: formatDay(first),
    lastDay: formatDay(addDays(afterLast, -1)),
  };
}

const firstOfMonth = (d: Day): Day => ({ y: d.y, m: d.m, d: 1 });

export function resolveDateRange(range: DateRange, ctx: RangeContext): ResolvedRange {
  const tz = ctx.timezone;
  const today = localDay(tz, ctx.now.getTime());
  const tomorrow = addDays(today, 1);
  switch (range.preset) {
    case "today":
      return span(tz, today, tomorrow);
    case "yesterday":
      return span(tz, addDays(today, -1), today);
    case "last_7_days":
      return span(tz, addDays(today, -6), tomorrow);
    case "last_30_days":
      return span(tz, addDays(today, -29), tomorrow);
    case "last_90_days":
      return span(tz, addDays(today, -89), tomorrow);
    case "month_to_date":
      return span(tz, firstOfMonth(today), tomorrow);
    case "last_month":
      return span(tz, addMonths(firstOfMonth(today), -1), firstOfMonth(today));
    case "year_to_date":
      return span(tz, { y: today.y, m: 1, d: 1 }, tomorrow);
    case "last_12_months":
      return span(tz, addMonths(firstOfMonth(today), -11), tomorrow);
    case "all_time": {
      const first = ctx.earliest ? localDay(tz, ctx.earliest.getTime()) : { y: today.y - 5, m: 1, d: 1 };
      return span(tz, first, tomorrow);
    }
    case "custom": {
      // The schema guarantees both dates for custom; the fallback keeps this total.
      const first = parseDay(range.from ?? formatDay(today));
      const last = parseDay(range.to ?? formatDay(today));
      return span(tz, first, addDays(last, 1));
    }
  }
}

/**
 * previous_period: the period of the same length just before (a month for last_month and
 * month_to_date, so that "this month so far" meets the same days of last month); year_over_year:
 * the same local dates a year earlier.
 */
export function comparisonRange(
  range: DateRange,
  current: ResolvedRange,
  comparison: Comparison,
  ctx: RangeContext,
): ComparisonRange {
  const tz = ctx.timezone;
  const first = parseDay(current.firstDay);
  const afterLast = addDays(parseDay(current.lastDay), 1);
  let cmp: ResolvedRange;
  if (comparison === "year_over_year") {
    cmp = span(tz, addMonths(first, -12), addMonths(afterLast, -12));
  } else if (range.preset === "last_month" || range.preset === "month_to_date") {
    const cFirst = addMonths(first, -1);
    const cAfter = range.preset === "last_month" ? first : addDays(cFirst, daysBetween(first, afterLast));
    cmp = span(tz, cFirst, cAfter.m !== cFirst.m && range.preset === "month_to_date" ? first : cAfter);
  } else {
    const n = daysBetween(first, afterLast);
    cmp = span(tz, addDays(first, -n), first);
  }
  let elapsedTo = cmp.to;
  const now = ctx.now.getTime();
  if (now >= current.from.getTime() && now < current.to.getTime()) {
    // Elapsed wall-clock time, so a DST change in either period does not shift the cut by an hour.
    const elapsed = wallMs(tz, now) - naiveOfDay(first);
    const cut = instantOfWall(tz, naiveOfDay(parseDay(cmp.firstDay)) + elapsed);
    elapsedTo = new Date(Math.min(cut, cmp.to.getTime()));
  }
  // Never overlap the main range (a year-over-year of a range longer than a year would).
  const clamp = (d: Date) => new Date(Math.min(d.getTime(), current.from.getTime()));
  return { ...cmp, to: clamp(cmp.to), elapsedTo: clamp(elapsedTo) };
}

/** The interval a chart of this range uses when the spec names none: one rule, shared with the web app. */
export { defaultInterval } from "@lookout/schema";
