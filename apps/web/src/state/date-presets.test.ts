import { DATE_PRESETS } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import {
  apiPeriod,
  chooseInterval,
  customRange,
  type DateRange,
  DEFAULT_PRESET,
  intervalsFor,
  PRESETS,
  parseIsoDate,
  rangeFor,
  toIsoDate,
  todayIn,
} from "./date-presets";

const today = "2025-06-15";

/** A custom range known to be valid here. */
function custom(from: string, to: string): DateRange {
  const r = customRange(from, to, today);
  if ("problem" in r) throw new Error(r.problem);
  return r;
}

describe("rangeFor", () => {
  it("defaults to the 7 days that end today", () => {
    expect(DEFAULT_PRESET).toBe("last_7_days");
    expect(rangeFor(DEFAULT_PRESET, today)).toMatchObject({
      firstDay: "2025-06-09",
      lastDay: "2025-06-15",
      days: 7,
      running: true,
      label: "Last 7 days",
    });
  });

  it("covers whole days for yesterday and last month, which are over", () => {
    expect(rangeFor("yesterday", today)).toMatchObject({ firstDay: "2025-06-14", lastDay: "2025-06-14", running: false });
    expect(rangeFor("last_month", today)).toMatchObject({ firstDay: "2025-05-01", lastDay: "2025-05-31", running: false });
  });

  it("runs from the first of the period to today", () => {
    expect(rangeFor("month_to_date", today)).toMatchObject({ firstDay: "2025-06-01", lastDay: today, running: true });
    expect(rangeFor("year_to_date", today)).toMatchObject({ firstDay: "2025-01-01", lastDay: today });
  });

  it("counts today in the property's timezone, not the browser's", () => {
    const at = new Date("2025-06-15T13:30:00Z");
    expect(todayIn("Pacific/Auckland", at)).toBe("2025-06-16");
    expect(todayIn("America/Los_Angeles", at)).toBe("2025-06-15");
    expect(todayIn("Not/AZone", at)).toBe(toIsoDate(at));
  });
});

describe("every preset", () => {
  it("lists the API's presets in order, custom last", () => {
    expect(PRESETS.map((p) => p.id)).toEqual([...DATE_PRESETS]);
    expect(PRESETS.at(-1)?.id).toBe("custom");
  });

  it("makes a custom range of whole local days, and says why it refuses one", () => {
    expect(custom("2025-02-01", "2025-02-28")).toMatchObject({ firstDay: "2025-02-01", lastDay: "2025-02-28", days: 28 });
    expect(customRange("2025-02-28", "2025-02-01", today)).toEqual({ problem: expect.stringMatching(/start date is after/) });
    expect(customRange("2025-06-10", "2025-06-16", today)).toEqual({
      problem: expect.stringMatching(/ends in the future.*2025-06-15/),
    });
    expect(customRange("2025-02-30", "2025-03-01", today)).toHaveProperty("problem");
    expect(customRange("yesterday", "2025-03-01", today)).toHaveProperty("problem");
    expect(parseIsoDate("2024-02-29")).toEqual(new Date(2024, 1, 29));
    expect(parseIsoDate("2023-02-29")).toBeNull();
    expect(toIsoDate(new Date(2025, 0, 5, 23, 59))).toBe("2025-01-05");
  });

  it("the same days as a custom range are the preset's range", () => {
    const preset = rangeFor("last_7_days", today);
    const same = custom(preset.firstDay, preset.lastDay);
    expect([same.firstDay, same.lastDay, same.days, same.running]).toEqual([
      preset.firstDay,
      preset.lastDay,
      preset.days,
      preset.running,
    ]);
    expect(same.intervals).toEqual(preset.intervals);
  });

  it("names the API's period and date", () => {
    expect(apiPeriod(rangeFor("last_30_days", today))).toEqual({ period: "last_30_days" });
    expect(apiPeriod(rangeFor("all_time", today))).toEqual({ period: "all_time" });
    expect(apiPeriod(custom("2025-01-01", "2025-01-31"))).toEqual({ period: "custom", date: "2025-01-01,2025-01-31" });
  });
});

describe("chart interval", () => {
  // The Stats API's rule (@lookout/schema chartIntervals): the dashboard starts where an API call
  // without `interval` would.
  it("uses hours up to two days, days up to three months, weeks up to a year, months beyond", () => {
    expect(chooseInterval(rangeFor("today", today))).toBe("hour");
    expect(chooseInterval(rangeFor("yesterday", today))).toBe("hour");
    expect(chooseInterval(rangeFor("last_7_days", today))).toBe("day");
    expect(chooseInterval(rangeFor("last_30_days", today))).toBe("day");
    expect(chooseInterval(rangeFor("last_90_days", today))).toBe("day");
    expect(chooseInterval(rangeFor("last_month", today))).toBe("day");
    expect(chooseInterval(rangeFor("all_time", today))).toBe("month");
    expect(chooseInterval(custom("2025-03-01", "2025-03-01"))).toBe("hour");
    expect(chooseInterval(custom("2025-03-01", "2025-03-02"))).toBe("hour");
    expect(chooseInterval(custom("2025-01-01", "2025-06-14"))).toBe("week");
    expect(chooseInterval(custom("2023-01-01", "2024-12-31"))).toBe("month");
  });

  it("charts year to date and the last 12 months by month, as the API does", () => {
    expect(chooseInterval(rangeFor("year_to_date", today))).toBe("month");
    expect(chooseInterval(rangeFor("last_12_months", today))).toBe("month");
    expect(intervalsFor(rangeFor("year_to_date", today)).options).toEqual(["day", "week", "month"]);
    expect(chooseInterval(rangeFor("year_to_date", today), "week")).toBe("week");
  });

  it("keeps an asked interval only where it suits the range", () => {
    expect(chooseInterval(rangeFor("last_30_days", today), "week")).toBe("week");
    expect(chooseInterval(rangeFor("last_30_days", today), "minute")).toBe("day");
    expect(chooseInterval(rangeFor("today", today), "minute")).toBe("minute");
    expect(chooseInterval(rangeFor("today", today), "month")).toBe("hour");
    expect(intervalsFor(rangeFor("last_7_days", today)).options).toEqual(["hour", "day"]);
  });
});
