// Date-range presets (SPEC.md §3, §9; DESIGN.md §4) as the web app uses them. The ranges themselves
// are @lookout/schema's presetRange, the one definition the Stats API resolves too: whole local
// days in the property's timezone, so the picker's label, the chart's buckets and the totals name
// the same days (last_7_days = the 7 days that end today, today counted up to now).
import {
  addCalendarDays,
  customRangeProblem,
  DATE_PRESET_LABELS,
  DATE_PRESETS,
  type DatePreset,
  type Interval,
  isCalendarDate,
  localCalendarDay,
  type PresetRange,
  presetRange,
} from "@lookout/schema";

export const PRESETS: readonly { id: DatePreset; label: string }[] = DATE_PRESETS.map((id) => ({
  id,
  label: DATE_PRESET_LABELS[id],
}));

export type Preset = DatePreset;
/** Presets that need no dates of their own. */
export type FixedPreset = Exclude<Preset, "custom">;
export const DEFAULT_PRESET: FixedPreset = "last_7_days";

/**
 * The range on show: its preset, its first and last local day (inclusive, YYYY-MM-DD), whether it
 * holds today, its label and chart intervals. all_time starts five years back here (the server
 * starts it at the first event); the picker names it "All time" rather than by dates.
 */
export type DateRange = PresetRange;

/** The browser's own timezone: the fallback until the property's is known. */
export function browserTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** Today's local calendar day in `timezone` (the property's), as YYYY-MM-DD. */
export function todayIn(timezone: string, now: Date = new Date()): string {
  try {
    return localCalendarDay(timezone, now);
  } catch {
    // An unknown zone (never stored by the server, but the list may be stale): the browser's day.
    return toIsoDate(now);
  }
}

export function rangeFor(preset: FixedPreset, today: string): DateRange {
  return presetRange({ preset }, today);
}

/** A custom range over whole local days `from`..`to` (inclusive), or the words saying why not. */
export function customRange(from: string, to: string, today: string): DateRange | { problem: string } {
  if (!isCalendarDate(from) || !isCalendarDate(to)) return { problem: "Enter both dates as full calendar dates." };
  const problem = customRangeProblem(from, to, today);
  return problem ? { problem } : presetRange({ preset: "custom", from, to }, today);
}

/** The last 30 days as two dates: where a custom range starts when all time was on show. */
export function last30Days(today: string): { from: string; to: string } {
  return { from: addCalendarDays(today, -29), to: today };
}

/** A local calendar date `YYYY-MM-DD` as a Date at local midnight, or null when it is not a real date. */
export function parseIsoDate(s: string): Date | null {
  if (!isCalendarDate(s)) return null;
  const [y, m, d] = s.split("-").map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** The browser's local calendar date of `d` as `YYYY-MM-DD`. */
export function toIsoDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${String(d.getFullYear()).padStart(4, "0")}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The Stats API's `period` and `date` parameters for a range. */
export function apiPeriod(range: DateRange): { period: Preset; date?: string } {
  if (range.preset !== "custom") return { period: range.preset };
  return { period: "custom", date: `${range.firstDay},${range.lastDay}` };
}

export function isPreset(v: string): v is Preset {
  return (DATE_PRESETS as readonly string[]).includes(v);
}

export function isFixedPreset(v: string): v is FixedPreset {
  return isPreset(v) && v !== "custom";
}

/**
 * The chart intervals that make sense for a range, and the one chosen by default: the Stats API's
 * own rule (@lookout/schema's chartIntervals), so the dashboard starts where an API call without
 * `interval` would.
 */
export function intervalsFor(range: DateRange) {
  return range.intervals;
}

/** The interval to chart: the asked one when it suits the range, else the range's default. */
export function chooseInterval(range: DateRange, asked?: Interval | null): Interval {
  return asked && range.intervals.options.includes(asked) ? asked : range.intervals.default;
}
