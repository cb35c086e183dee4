import { describe, expect, it } from "vitest";
import { DEFAULT_PRESET, rangeFor } from "./date-presets";

const now = new Date(2025, 5, 15, 13, 30); // 15 June 2025, 13:30 local

describe("rangeFor", () => {
  it("defaults to the past 7 days up to now", () => {
    expect(DEFAULT_PRESET).toBe("last_7_days");
    const r = rangeFor(DEFAULT_PRESET, now);
    expect(r.end).toEqual(now);
    expect(now.getTime() - r.start.getTime()).toBe(7 * 86_400_000);
  });

  it("covers whole days for yesterday and last month", () => {
    const y = rangeFor("yesterday", now);
    expect(y.start).toEqual(new Date(2025, 5, 14));
    expect(y.end).toEqual(new Date(new Date(2025, 5, 15).getTime() - 1));
    const m = rangeFor("last_month", now);
    expect(m.start).toEqual(new Date(2025, 4, 1));
    expect(m.end).toEqual(new Date(new Date(2025, 5, 1).getTime() - 1));
  });

  it("runs from the first of the period to now", () => {
    expect(rangeFor("month_to_date", now).start).toEqual(new Date(2025, 5, 1));
    expect(rangeFor("year_to_date", now).start).toEqual(new Date(2025, 0, 1));
  });
});
