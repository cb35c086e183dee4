// The presets' local days for a given "today" (the timezone side is in packages/query's
// date-range-dst.test.ts): labels, running ranges, month and year edges, intervals, and the words
// a refused custom range gets.
import { describe, expect, it } from "vitest";
import {
  addCalendarDays,
  addCalendarMonths,
  calendarDaysBetween,
  customRangeProblem,
  DATE_PRESET_LABELS,
  localCalendarDay,
  presetRange,
} from "./date-presets.js";
import { DATE_PRESETS } from "./query.js";

describe("presetRange", () => {
  it("names N days for last N days, the last one today", () => {
    for (const [preset, n] of [
      ["last_7_days", 7],
      ["last_30_days", 30],
      ["last_90_days", 90],
    ] as const) {
      const r = presetRange({ preset }, "2024-03-01");
      expect(r).toMatchObject({ days: n, lastDay: "2024-03-01", running: true, label: DATE_PRESET_LABELS[preset] });
    }
    // Across a leap day: 2024-02-24..2024-03-01 is 7 days.
    expect(presetRange({ preset: "last_7_days" }, "2024-03-01").firstDay).toBe("2024-02-24");
  });

  it("month and year edges", () => {
    expect(presetRange({ preset: "month_to_date" }, "2024-01-01")).toMatchObject({ firstDay: "2024-01-01", days: 1 });
    expect(presetRange({ preset: "last_month" }, "2024-01-15")).toMatchObject({
      firstDay: "2023-12-01",
      lastDay: "2023-12-31",
      days: 31,
      running: false,
    });
    expect(presetRange({ preset: "last_month" }, "2024-03-31")).toMatchObject({ firstDay: "2024-02-01", lastDay: "2024-02-29" });
    expect(presetRange({ preset: "year_to_date" }, "2024-12-31")).toMatchObject({ firstDay: "2024-01-01", days: 366 });
    expect(presetRange({ preset: "last_12_months" }, "2024-01-31")).toMatchObject({
      firstDay: "2023-02-01",
      lastDay: "2024-01-31",
    });
    expect(presetRange({ preset: "yesterday" }, "2024-01-01")).toMatchObject({ firstDay: "2023-12-31", lastDay: "2023-12-31" });
  });

  it("all time starts at the earliest day (never after today), else five years back", () => {
    expect(presetRange({ preset: "all_time" }, "2024-03-01").firstDay).toBe("2019-01-01");
    expect(presetRange({ preset: "all_time" }, "2024-03-01", "2023-06-14").firstDay).toBe("2023-06-14");
    expect(presetRange({ preset: "all_time" }, "2024-03-01", "2024-05-01").firstDay).toBe("2024-03-01");
  });

  it("a custom range is its own days; running only when it holds today", () => {
    expect(presetRange({ preset: "custom", from: "2024-02-01", to: "2024-02-07" }, "2024-03-01")).toMatchObject({
      firstDay: "2024-02-01",
      lastDay: "2024-02-07",
      days: 7,
      running: false,
      label: "Custom range",
    });
    expect(presetRange({ preset: "custom", from: "2024-02-24", to: "2024-03-01" }, "2024-03-01").running).toBe(true);
  });

  it("offers the intervals of its length, as the Stats API does", () => {
    expect(presetRange({ preset: "today" }, "2024-03-01").intervals).toEqual({ options: ["minute", "hour"], default: "hour" });
    expect(presetRange({ preset: "last_7_days" }, "2024-03-01").intervals).toEqual({ options: ["hour", "day"], default: "day" });
    expect(presetRange({ preset: "year_to_date" }, "2024-03-01").intervals.default).toBe("month");
  });

  it("labels every preset", () => {
    for (const p of DATE_PRESETS) expect(DATE_PRESET_LABELS[p]).toMatch(/^[A-Z]/);
  });
});

describe("customRangeProblem", () => {
  it("accepts a range ending today or before", () => {
    expect(customRangeProblem("2024-02-01", "2024-03-01", "2024-03-01")).toBeNull();
    expect(customRangeProblem("2024-03-01", "2024-03-01", "2024-03-01")).toBeNull();
  });
  it("says what is wrong otherwise", () => {
    expect(customRangeProblem("2024-03-02", "2024-03-01", "2024-03-05")).toMatch(/start date is after the end date/);
    expect(customRangeProblem("2024-03-01", "2024-03-02", "2024-03-01")).toMatch(/ends in the future.*2024-03-01/);
  });
});

describe("calendar arithmetic", () => {
  it("adds days and months across year ends and leap days", () => {
    expect(addCalendarDays("2023-12-31", 1)).toBe("2024-01-01");
    expect(addCalendarDays("2024-03-01", -1)).toBe("2024-02-29");
    expect(addCalendarMonths("2024-01-31", 1)).toBe("2024-02-01");
    expect(addCalendarMonths("2024-01-15", -1)).toBe("2023-12-01");
    expect(calendarDaysBetween("2024-02-28", "2024-03-01")).toBe(3);
  });
  it("reads the local day in a timezone", () => {
    const at = new Date("2024-03-10T03:30:00Z");
    expect(localCalendarDay("America/New_York", at)).toBe("2024-03-09");
    expect(localCalendarDay("Pacific/Auckland", at)).toBe("2024-03-10");
    expect(localCalendarDay("UTC", new Date("0999-01-01T00:00:00Z"))).toBe("0999-01-01");
  });
});
