// Which chart intervals suit a date range, and the one it gets by default (DESIGN.md §4): the
// Stats API answers a timeseries without `interval` at the default, and the dashboard offers the
// options and starts at the same default, so a chart reads alike in the API and on screen.
// Pure: callers count the range's days their own way (the server in the property's timezone).
import type { DatePreset, Interval } from "./query.js";

/** Presets charted by month whatever their length: they are read as a run of months. */
export const MONTHLY_PRESETS: readonly DatePreset[] = ["year_to_date", "last_12_months", "all_time"];

export interface ChartIntervals {
  /** The intervals worth offering, finest first; always holds `default`. */
  options: Interval[];
  default: Interval;
}

/**
 * `days` is the number of local calendar days the range covers, a partial day counting as one
 * (Infinity for an open-ended range). Hours up to two days, days up to about three months, weeks
 * up to a year, months beyond; minutes only within one day (the API caps a chart's buckets).
 */
export function chartIntervals(preset: DatePreset, days: number): ChartIntervals {
  const monthly = MONTHLY_PRESETS.includes(preset);
  let fallback: Interval;
  if (monthly) fallback = "month";
  else if (days <= 2) fallback = "hour";
  else if (days <= 92) fallback = "day";
  else if (days <= 366) fallback = "week";
  else fallback = "month";
  let options: Interval[];
  if (monthly) options = ["day", "week", "month"];
  else if (preset === "today" || preset === "yesterday" || days <= 1) options = ["minute", "hour"];
  else if (days <= 7) options = ["hour", "day"];
  else if (days <= 31) options = ["day", "week"];
  else options = ["day", "week", "month"];
  return { options, default: fallback };
}

/** The asked interval when it suits the range, else the range's default. */
export function chooseChartInterval(preset: DatePreset, days: number, asked?: Interval | null): Interval {
  const { options, default: fallback } = chartIntervals(preset, days);
  return asked && options.includes(asked) ? asked : fallback;
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

/** Local calendar days from `firstDay` to `lastDay` (YYYY-MM-DD), both counted. */
export function inclusiveDays(firstDay: string, lastDay: string): number {
  return Math.round(dayNumber(lastDay) - dayNumber(firstDay)) + 1;
}

/** The interval a chart of this range uses when the spec names none (the Stats API's default). */
export function defaultInterval(range: { preset: DatePreset }, days: { firstDay: string; lastDay: string }): Interval {
  return chartIntervals(range.preset, inclusiveDays(days.firstDay, days.lastDay)).default;
}
