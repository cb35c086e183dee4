// The date presets (DESIGN.md §4), defined once for the server and the web app: which local
// calendar days each preset covers in the property's timezone, its label, its chart intervals and
// whether it is still running (holds today). A range is always whole local days, `firstDay` to
// `lastDay` INCLUSIVE (YYYY-MM-DD); the server turns them into instants (packages/query's
// date-range.ts: [start of firstDay, start of the day after lastDay)), and "today counted up to now"
// falls out of that because nothing after now has been recorded. last_N_days = the N days that end
// today, so a label, a chart's day buckets and the totals name the same N days, and the same dates
// picked as a custom range resolve to the very same range.
// Pure: Intl only (the runtime's tz database), no clock read here; callers pass `now`.
import { type ChartIntervals, chartIntervals } from "./intervals.js";
import type { DatePreset } from "./query.js";

export const DATE_PRESET_LABELS: Record<DatePreset, string> = {
  today: "Today",
  yesterday: "Yesterday",
  last_7_days: "Last 7 days",
  last_30_days: "Last 30 days",
  last_90_days: "Last 90 days",
  month_to_date: "Month to date",
  last_month: "Last month",
  year_to_date: "Year to date",
  last_12_months: "Last 12 months",
  all_time: "All time",
  custom: "Custom range",
};

/** A range as asked: a preset, and for custom its first and last day (inclusive). */
export interface AskedRange {
  preset: DatePreset;
  from?: string | undefined;
  to?: string | undefined;
}

export interface PresetRange {
  preset: DatePreset;
  /** The first local calendar day covered. */
  firstDay: string;
  /** The last local calendar day covered (inclusive). */
  lastDay: string;
  /** Calendar days covered, both ends counted (a running range counts today as one). */
  days: number;
  /**
   * The range holds today: its totals count today up to now, and a chart's last bucket (the one
   * holding now) is still filling: drawn as incomplete, and no bucket after it is drawn.
   */
  running: boolean;
  /** The preset's name ("Last 7 days"); the dates themselves are `firstDay`..`lastDay`. */
  label: string;
  /** The chart intervals that suit the range and the default one (the Stats API's rule). */
  intervals: ChartIntervals;
}

// Calendar arithmetic on YYYY-MM-DD read as UTC dates: a UTC day is always 24 hours long.
const DAY_MS = 86_400_000;
const toMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const fromMs = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function addCalendarDays(day: string, n: number): string {
  return fromMs(toMs(day) + n * DAY_MS);
}

/** The first day of the month `n` months from `day`'s month. */
export function addCalendarMonths(day: string, n: number): string {
  const d = new Date(toMs(day));
  return fromMs(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
}

/** Days from `first` to `last`, both counted. */
export function calendarDaysBetween(first: string, last: string): number {
  return Math.round((toMs(last) - toMs(first)) / DAY_MS) + 1;
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** The local calendar day (YYYY-MM-DD) in `timezone` at the instant `at`. */
export function localCalendarDay(timezone: string, at: Date): string {
  let f = dayFormatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: timezone, year: "numeric", month: "numeric", day: "numeric" });
    dayFormatters.set(timezone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(at)) parts[p.type] = p.value;
  const pad = (v: string | undefined, n: number) => (v ?? "1").padStart(n, "0");
  return `${pad(parts.year, 4)}-${pad(parts.month, 2)}-${pad(parts.day, 2)}`;
}

/** Why a custom range cannot be answered, in words a person can act on; null when it can. */
export function customRangeProblem(from: string, to: string, today: string): string | null {
  if (from > to) return "The start date is after the end date: choose a start on or before the end.";
  if (to > today) return `The range ends in the future: choose an end on or before today (${today}).`;
  return null;
}

/**
 * The days a range covers when `today` is the property's local calendar day now. `earliest`, the
 * local day all time starts on (the first event, or the property's creation), defaults to
 * 1 January five years back. A custom range is taken as given: check it with customRangeProblem.
 */
export function presetRange(range: AskedRange, today: string, earliest?: string): PresetRange {
  const monthStart = addCalendarMonths(today, 0);
  let first: string;
  let last = today;
  switch (range.preset) {
    case "today":
      first = today;
      break;
    case "yesterday":
      first = last = addCalendarDays(today, -1);
      break;
    case "last_7_days":
      first = addCalendarDays(today, -6);
      break;
    case "last_30_days":
      first = addCalendarDays(today, -29);
      break;
    case "last_90_days":
      first = addCalendarDays(today, -89);
      break;
    case "month_to_date":
      first = monthStart;
      break;
    case "last_month":
      first = addCalendarMonths(today, -1);
      last = addCalendarDays(monthStart, -1);
      break;
    case "year_to_date":
      first = `${today.slice(0, 4)}-01-01`;
      break;
    case "last_12_months":
      first = addCalendarMonths(today, -11);
      break;
    case "all_time":
      first =
        earliest === undefined
          ? `${String(Number(today.slice(0, 4)) - 5).padStart(4, "0")}-01-01`
          : earliest < today
            ? earliest
            : today;
      break;
    case "custom":
      first = range.from ?? today;
      last = range.to ?? today;
      break;
  }
  const days = calendarDaysBetween(first, last);
  return {
    preset: range.preset,
    firstDay: first,
    lastDay: last,
    days,
    running: first <= today && today <= last,
    label: DATE_PRESET_LABELS[range.preset],
    intervals: chartIntervals(range.preset, days),
  };
}
