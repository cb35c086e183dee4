// Date-range presets (SPEC.md §3, §9; DESIGN.md §4). The default, last_7_days, is the past seven
// days up to now. Ranges here use the browser's clock; the query layer re-reads them in the
// property's time zone.
export const PRESETS = [
  { id: "today", label: "Today" },
  { id: "yesterday", label: "Yesterday" },
  { id: "last_7_days", label: "Last 7 days" },
  { id: "last_30_days", label: "Last 30 days" },
  { id: "last_90_days", label: "Last 90 days" },
  { id: "month_to_date", label: "Month to date" },
  { id: "last_month", label: "Last month" },
  { id: "year_to_date", label: "Year to date" },
  { id: "last_12_months", label: "Last 12 months" },
] as const;

export type Preset = (typeof PRESETS)[number]["id"];
export const DEFAULT_PRESET: Preset = "last_7_days";

export interface DateRange {
  start: Date;
  end: Date;
  preset: Preset;
}

const DAY_MS = 86_400_000;

function startOfDay(d: Date): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate());
}

function endOfPreviousDay(d: Date): Date {
  return new Date(startOfDay(d).getTime() - 1);
}

function span(preset: Preset, now: Date): [Date, Date] {
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
  }
}

export function rangeFor(preset: Preset, now: Date = new Date()): DateRange {
  const [start, end] = span(preset, now);
  return { start, end, preset };
}

export function isPreset(v: string): v is Preset {
  return PRESETS.some((p) => p.id === v);
}
