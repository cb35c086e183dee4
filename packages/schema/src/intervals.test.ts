// Chart intervals: the one rule the Stats API's default and the dashboard's options follow.
import { describe, expect, it } from "vitest";
import { chartIntervals, chooseChartInterval, defaultInterval, inclusiveDays } from "./intervals.js";
import { DATE_PRESETS } from "./query.js";

describe("chartIntervals", () => {
  it("defaults to hours up to two days, days to ~3 months, weeks to a year, months beyond", () => {
    const d = (days: number) => chartIntervals("custom", days).default;
    expect([d(1), d(2), d(3), d(92), d(93), d(366), d(367), d(Number.POSITIVE_INFINITY)]).toEqual([
      "hour",
      "hour",
      "day",
      "day",
      "week",
      "week",
      "month",
      "month",
    ]);
    expect(chartIntervals("today", 1)).toEqual({ options: ["minute", "hour"], default: "hour" });
    expect(chartIntervals("last_7_days", 7)).toEqual({ options: ["hour", "day"], default: "day" });
    expect(chartIntervals("last_30_days", 30)).toEqual({ options: ["day", "week"], default: "day" });
  });

  it("charts year to date, the last 12 months and all time by month", () => {
    for (const preset of ["year_to_date", "last_12_months", "all_time"] as const) {
      expect(chartIntervals(preset, 5)).toEqual({ options: ["day", "week", "month"], default: "month" });
      expect(chartIntervals(preset, 365).default).toBe("month");
    }
  });

  it("always offers its default", () => {
    for (const preset of DATE_PRESETS) {
      // today and yesterday are one day long by definition.
      const oneDay = preset === "today" || preset === "yesterday";
      const lengths = oneDay ? [1] : [...Array.from({ length: 800 }, (_, i) => i + 1), Number.POSITIVE_INFINITY];
      for (const days of lengths) {
        const { options, default: fallback } = chartIntervals(preset, days);
        expect(options, `${preset} ${days}`).toContain(fallback);
      }
    }
  });

  it("keeps an asked interval only where it suits the range", () => {
    expect(chooseChartInterval("last_30_days", 30, "week")).toBe("week");
    expect(chooseChartInterval("last_30_days", 30, "minute")).toBe("day");
    expect(chooseChartInterval("today", 1, "minute")).toBe("minute");
    expect(chooseChartInterval("today", 1, null)).toBe("hour");
  });
});

describe("defaultInterval", () => {
  it("counts local calendar days, both ends included", () => {
    expect(inclusiveDays("2024-03-12", "2024-03-12")).toBe(1);
    expect(inclusiveDays("2024-02-28", "2024-03-01")).toBe(3);
    expect(inclusiveDays("2023-03-01", "2024-02-29")).toBe(366);
    expect(defaultInterval({ preset: "custom" }, { firstDay: "2024-03-11", lastDay: "2024-03-12" })).toBe("hour");
    expect(defaultInterval({ preset: "custom" }, { firstDay: "2023-06-01", lastDay: "2024-03-01" })).toBe("week");
    expect(defaultInterval({ preset: "year_to_date" }, { firstDay: "2024-01-01", lastDay: "2024-03-12" })).toBe("month");
  });
});
