// Date presets -> [from, to) instants in the property's timezone (DESIGN.md §4), and the periods a
// comparison sets against them. Ranges are whole local days so that DST days are 23 or 25 hours
// long rather than shifted; "now" only matters for "which day is today" and for comparisons of a
// period that is still running.
import { type Comparison, customRangeProblem, type DateRange, localCalendarDay, presetRange } from "@lookout/schema";
import { QueryError } from "./errors.js";
import {
  addDays,
  addMonths,
  type Day,
  daysBetween,
  formatDay,
  instantOfWall,
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

/**
 * The range's instants: the local days come from @lookout/schema's presetRange, the one definition
 * the web app's label uses too. A custom range that ends after today (in the property's timezone)
 * is refused: a 400 naming `date`, rather than a chart with empty days that have not happened.
 */
export function resolveDateRange(range: DateRange, ctx: RangeContext): ResolvedRange {
  const tz = ctx.timezone;
  const today = localCalendarDay(tz, ctx.now);
  if (range.preset === "custom") {
    const problem = customRangeProblem(range.from ?? today, range.to ?? today, today);
    if (problem) throw new QueryError("invalid_parameter", problem, "date");
  }
  const days = presetRange(range, today, ctx.earliest ? localCalendarDay(tz, ctx.earliest) : undefined);
  return span(tz, parseDay(days.firstDay), addDays(parseDay(days.lastDay), 1));
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
