// Date-range presets (SPEC.md §3, §9; DESIGN.md §4). The default, last_7_days, is the past seven
// days up to now. Ranges here use the browser's clock for what the picker shows; the Stats API
// re-reads the preset (or a custom range's two dates) in the property's time zone.
import {
  type ChartIntervals,
  chartIntervals,
  chooseChartInterval,
  DATE_PRESETS,
  type DatePreset,
  type Interval,
} from "@lookout/schema";

const LABELS: Record<DatePreset, string> = {
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

export const PRESETS: readonly { id: DatePreset; label: string }[] = DATE_PRESETS.map((id) => ({ id, label: LABELS[id] }));

export type Preset = DatePreset;
/** Presets that need no dates of their own. */
export type FixedPreset = Exclude<Preset, "custom">;
export const DEFAULT_PRESET: FixedPreset = "last_7_days";

export interface DateRange {
  /** For all_time the epoch: the range is open-ended and the server starts at the first event. */
  start: Date;
  end: Date;
  preset: Preset;
}

const DAY_MS = 86_400_000;

function startOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
}

function endOfDay(d: Date): Date {
  return new Date(new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime() - 1);
}

function endOfPreviousDay(d: Date): Date {
  return new Date(startOfDay(d).getTime() - 1);
}

function span(preset: FixedPreset, now: Date): [Date, Date] {
  switch (preset) {
    case "today":
      return [startOfDay(now), now];
    case "yesterday":
      return [startOfDay(new Date(now.getTime() - DAY_MS)), endOfPreviousDay(now)];
    case "last_7_days":
      return [new Date(now.getTime() - 7 * DAY_MS), now];
    case "last_30_days":
      return [new Date(now.getTime() - 30 * DAY_MS), now];
    case "last_90_days":
      return [new Date(now.getTime() - 90 * DAY_MS), now];
    case "month_to_date":
      return [new Date(now.getFullYear(), now.getMonth(), 1), now];
    case "last_month":
      return [
        new Date(now.getFullYear(), now.getMonth() - 1, 1),
        new Date(new Date(now.getFullYear(), now.getMonth(), 1).getTime() - 1),
      ];
    case "year_to_date":
      return [new Date(now.getFullYear(), 0, 1), now];
    case "last_12_months":
      return [new Date(now.getFullYear() - 1, now.getMonth(), now.getDate(), now.getHours(), now.getMinutes()), now];
    case "all_time":
      return [new Date(0), now];
  }
}

export function rangeFor(preset: FixedPreset, now: Date = new Date()): DateRange {
  const [start, end] = span(preset, now);
  return { start, end, preset };
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A local calendar date `YYYY-MM-DD` as a Date at local midnight, or null when it is not a real date. */
export function parseIsoDate(s: string): Date | null {
  const m = ISO_DATE.exec(s);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(y, mo - 1, d);
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || y < 1970) return null;
  return date;
}

/** The local calendar date of `d` as `YYYY-MM-DD`. */
export function toIsoDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${String(d.getFullYear()).padStart(4, "0")}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A custom range over whole local days `from`..`to` (inclusive), or null when invalid or reversed. */
export function customRange(from: string, to: string): DateRange | null {
  const a = parseIsoDate(from);
  const b = parseIsoDate(to);
  if (!a || !b || a > b) return null;
  return { start: a, end: endOfDay(b), preset: "custom" };
}

/** The Stats API's `period` and `date` parameters for a range. */
export function apiPeriod(range: DateRange): { period: Preset; date?: string } {
  if (range.preset !== "custom") return { period: range.preset };
  return { period: "custom", date: `${toIsoDate(range.start)},${toIsoDate(range.end)}` };
}

export function isPreset(v: string): v is Preset {
  return (DATE_PRESETS as readonly string[]).includes(v);
}

export function isFixedPreset(v: string): v is FixedPreset {
  return isPreset(v) && v !== "custom";
}

/** Whole days the range covers (a partial day counts as one); Infinity for all_time. */
export function rangeDays(range: DateRange): number {
  if (range.preset === "all_time") return Number.POSITIVE_INFINITY;
  return Math.max(1, Math.ceil((range.end.getTime() - range.start.getTime()) / DAY_MS));
}

/**
 * The chart intervals that make sense for a range, and the one chosen by default: the Stats API's
 * own rule (@lookout/schema's chartIntervals), so the dashboard starts where an API call without
 * `interval` would.
 */
export function intervalsFor(range: DateRange): ChartIntervals {
  return chartIntervals(range.preset, rangeDays(range));
}

/** The interval to chart: the asked one when it suits the range, else the range's default. */
export function chooseInterval(range: DateRange, asked?: Interval | null): Interval {
  return chooseChartInterval(range.preset, rangeDays(range), asked);
}
