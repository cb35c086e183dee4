import { describe, expect, it } from "vitest";
import { calendarRange, calendarSummary, stepThresholds } from "./calendar";

describe("activity calendar", () => {
  it("covers the 12 months up to today", () => {
    expect(calendarRange("2026-11-25")).toEqual(["2025-11-26", "2026-11-25"]);
    expect(calendarRange("2024-02-29")).toEqual(["2023-03-02", "2024-02-29"]);
  });

  it("splits busy days by quartiles", () => {
    const days = [1, 2, 3, 4, 5, 6, 7, 8].map((n, i) => ({ date: `2026-01-0${i + 1}`, events: n }));
    expect(stepThresholds(days)).toEqual([3, 5, 7]);
    expect(stepThresholds([])).toEqual([1, 1, 1]);
  });

  it("counts active days in the range and names the busiest", () => {
    const days = [
      { date: "2025-01-01", events: 99 },
      { date: "2026-03-01", events: 2 },
      { date: "2026-03-02", events: 7 },
      { date: "2026-03-03", events: 0 },
    ];
    expect(calendarSummary(days, ["2025-11-26", "2026-11-25"])).toEqual({
      active: 2,
      busiest: { date: "2026-03-02", events: 7 },
    });
  });
});
