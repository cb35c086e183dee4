// Keyboard shortcuts for the date range (issue #19 item 8), Plausible's letters plus the digits
// people expect (7 and 3 for the last 7 and 30 days): a pure mapping from a key and the range on
// show to the range to choose, so the dashboard's listener only forwards keys and the mapping is
// tested without a browser. Dates are local calendar days `YYYY-MM-DD`, compared as strings.
import { addCalendarDays, addCalendarMonths, calendarDaysBetween } from "@lookout/schema";
import type { FixedPreset, Preset } from "./date-presets";

/** What a key asks for: a preset, or a custom range over whole days (inclusive). */
export type DateKeyAction = { preset: FixedPreset } | { from: string; to: string };

/** The range on show as the picker describes it: its preset and its first and last calendar days. */
export interface ShownRange {
  preset: Preset;
  from: string;
  to: string;
}

/** Keys that pick a preset; both a letter and a digit where Plausible and habit differ. */
const PRESET_KEYS: Record<string, FixedPreset> = {
  d: "today",
  e: "yesterday",
  w: "last_7_days",
  "7": "last_7_days",
  t: "last_30_days",
  "3": "last_30_days",
  n: "last_90_days",
  m: "month_to_date",
  p: "last_month",
  y: "year_to_date",
  l: "last_12_months",
  a: "all_time",
};

/** The shortcuts as the help popover lists them, in the picker's order. */
export const SHORTCUTS: readonly { keys: string[]; label: string }[] = [
  { keys: ["D"], label: "Today" },
  { keys: ["E"], label: "Yesterday" },
  { keys: ["7", "W"], label: "Last 7 days" },
  { keys: ["3", "T"], label: "Last 30 days" },
  { keys: ["N"], label: "Last 90 days" },
  { keys: ["M"], label: "Month to date" },
  { keys: ["P"], label: "Last month" },
  { keys: ["Y"], label: "Year to date" },
  { keys: ["L"], label: "Last 12 months" },
  { keys: ["A"], label: "All time" },
  { keys: ["←", "→"], label: "Previous / next period (a day, a month, a year or a custom range)" },
  { keys: ["?"], label: "Show these shortcuts" },
];

// Calendar arithmetic: @lookout/schema's, the same the presets are computed with.
const addDays = addCalendarDays;
/** The first day of the month `n` months from `day`'s. */
const addMonths = addCalendarMonths;
const daysBetween = calendarDaysBetween;

function lastOfMonth(first: string): string {
  return addDays(addMonths(first, 1), -1);
}

/** A period the arrows can step through: a day, a calendar month, a calendar year or any run of days. */
type Period =
  | { unit: "day"; day: string }
  | { unit: "month"; first: string }
  | { unit: "year"; year: number }
  | { unit: "days"; from: string; to: string };

/** The period on show, or null for the rolling presets and all time, which have no previous one. */
function periodOf(range: ShownRange, today: string): Period | null {
  switch (range.preset) {
    case "today":
      return { unit: "day", day: today };
    case "yesterday":
      return { unit: "day", day: addDays(today, -1) };
    case "month_to_date":
      return { unit: "month", first: addMonths(today, 0) };
    case "last_month":
      return { unit: "month", first: addMonths(today, -1) };
    case "year_to_date":
      return { unit: "year", year: Number(today.slice(0, 4)) };
    case "custom": {
      const { from, to } = range;
      if (from > to) return null;
      if (from === to) return { unit: "day", day: from };
      if (from.endsWith("-01-01") && to === `${from.slice(0, 4)}-12-31`) return { unit: "year", year: Number(from.slice(0, 4)) };
      if (from.endsWith("-01") && to === lastOfMonth(from)) return { unit: "month", first: from };
      return { unit: "days", from, to };
    }
    default:
      return null;
  }
}

function shift(p: Period, dir: -1 | 1): Period {
  switch (p.unit) {
    case "day":
      return { unit: "day", day: addDays(p.day, dir) };
    case "month":
      return { unit: "month", first: addMonths(p.first, dir) };
    case "year":
      return { unit: "year", year: p.year + dir };
    case "days": {
      const n = daysBetween(p.from, p.to) * dir;
      return { unit: "days", from: addDays(p.from, n), to: addDays(p.to, n) };
    }
  }
}

function firstDay(p: Period): string {
  if (p.unit === "day") return p.day;
  if (p.unit === "month") return p.first;
  if (p.unit === "year") return `${String(p.year).padStart(4, "0")}-01-01`;
  return p.from;
}

/** A period as the picker's own choice: the preset that names it where there is one. */
function actionFor(p: Period, today: string): DateKeyAction {
  switch (p.unit) {
    case "day":
      if (p.day === today) return { preset: "today" };
      if (p.day === addDays(today, -1)) return { preset: "yesterday" };
      return { from: p.day, to: p.day };
    case "month":
      if (p.first === addMonths(today, 0)) return { preset: "month_to_date" };
      if (p.first === addMonths(today, -1)) return { preset: "last_month" };
      return { from: p.first, to: lastOfMonth(p.first) };
    case "year":
      if (String(p.year) === today.slice(0, 4)) return { preset: "year_to_date" };
      return { from: `${String(p.year).padStart(4, "0")}-01-01`, to: `${String(p.year).padStart(4, "0")}-12-31` };
    case "days":
      return { from: p.from, to: p.to };
  }
}

/**
 * The range a key asks for, or null when the key is not a shortcut or has nothing to do here:
 * an arrow on a rolling range (last 7 days, all time...), → into the future, ← before 1970.
 * `today` is the local calendar day of now in the property's timezone.
 */
export function rangeForKey(key: string, range: ShownRange, today: string): DateKeyAction | null {
  const preset = PRESET_KEYS[key.toLowerCase()];
  if (preset) return preset === range.preset ? null : { preset };
  if (key !== "ArrowLeft" && key !== "ArrowRight") return null;
  const period = periodOf(range, today);
  if (!period) return null;
  const next = shift(period, key === "ArrowLeft" ? -1 : 1);
  const start = firstDay(next);
  // Forward stops at the period holding today; a run of days must also end by today (no future).
  if (start > today || (next.unit === "days" && next.to > today)) return null;
  if (start < "1970-01-01") return null;
  return actionFor(next, today);
}

/**
 * Whether a key press is left alone: one with a modifier (a browser or system shortcut), one typed
 * into a field, one already handled, or one inside a modal (the range behind it stays put).
 */
export function ignoresKey(e: {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  defaultPrevented: boolean;
  target: EventTarget | null;
}): boolean {
  if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return true;
  const t = e.target as { tagName?: string; isContentEditable?: boolean; closest?: (s: string) => unknown } | null;
  if (!t?.tagName) return false;
  if (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName.toUpperCase())) return true;
  if (t.closest?.(".modal")) return true;
  // Arrow keys move within tab lists, menus, radio groups and sliders: those keep them.
  return (
    e.key.startsWith("Arrow") &&
    !!t.closest?.('[role="tablist"], [role="menu"], [role="radiogroup"], [role="slider"], [role="listbox"]')
  );
}
