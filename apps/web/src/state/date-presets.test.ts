import { DATE_PRESETS } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import {
  apiPeriod,
  chooseInterval,
  customRange,
  DEFAULT_PRESET,
  intervalsFor,
  PRESETS,
  parseIsoDate,
  rangeFor,
  toIsoDate,
} from "./date-presets";

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

describe("every preset", () => {
  it("lists the API's presets in order, custom last", () => {
    expect(PRESETS.map((p) => p.id)).toEqual([...DATE_PRESETS]);
    expect(PRESETS.at(-1)?.id).toBe("custom");
  });

  it("makes a custom range of whole local days, refusing bad or reversed dates", () => {
    const r = customRange("2025-02-01", "2025-02-28");
    expect(r?.start).toEqual(new Date(2025, 1, 1));
    expect(r?.end).toEqual(new Date(new Date(2025, 2, 1).getTime() - 1));
    expect(customRange("2025-02-28", "2025-02-01")).toBeNull();
    expect(customRange("2025-02-30", "2025-03-01")).toBeNull();
    expect(customRange("yesterday", "2025-03-01")).toBeNull();
    expect(parseIsoDate("2024-02-29")).toEqual(new Date(2024, 1, 29));
    expect(toIsoDate(new Date(2025, 0, 5, 23, 59))).toBe("2025-01-05");
  });

  it("names the API's period and date", () => {
    expect(apiPeriod(rangeFor("last_30_days", now))).toEqual({ period: "last_30_days" });
    expect(apiPeriod(rangeFor("all_time", now))).toEqual({ period: "all_time" });
    const custom = customRange("2025-01-01", "2025-01-31");
    expect(custom && apiPeriod(custom)).toEqual({ period: "custom", date: "2025-01-01,2025-01-31" });
  });
});

describe("chart interval", () => {
  // The Stats API's rule (@lookout/schema chartIntervals): the dashboard starts where an API call
  // without `interval` would.
  it("uses hours up to two days, days up to three months, weeks up to a year, months beyond", () => {
    expect(chooseInterval(rangeFor("today", now))).toBe("hour");
    expect(chooseInterval(rangeFor("yesterday", now))).toBe("hour");
    expect(chooseInterval(rangeFor("last_7_days", now))).toBe("day");
    expect(chooseInterval(rangeFor("last_30_days", now))).toBe("day");
    expect(chooseInterval(rangeFor("last_90_days", now))).toBe("day");
    expect(chooseInterval(rangeFor("last_month", now))).toBe("day");
    expect(chooseInterval(rangeFor("all_time", now))).toBe("month");
    const oneDay = customRange("2025-03-01", "2025-03-01");
    const twoDays = customRange("2025-03-01", "2025-03-02");
    const halfYear = customRange("2025-01-01", "2025-06-30");
    const twoYears = customRange("2023-01-01", "2024-12-31");
    expect(oneDay && chooseInterval(oneDay)).toBe("hour");
    expect(twoDays && chooseInterval(twoDays)).toBe("hour");
    expect(halfYear && chooseInterval(halfYear)).toBe("week");
    expect(twoYears && chooseInterval(twoYears)).toBe("month");
  });

  it("charts year to date and the last 12 months by month, as the API does", () => {
    expect(chooseInterval(rangeFor("year_to_date", now))).toBe("month");
    expect(chooseInterval(rangeFor("last_12_months", now))).toBe("month");
    expect(intervalsFor(rangeFor("year_to_date", now)).options).toEqual(["day", "week", "month"]);
    expect(chooseInterval(rangeFor("year_to_date", now), "week")).toBe("week");
  });

  it("keeps an asked interval only where it suits the range", () => {
    expect(chooseInterval(rangeFor("last_30_days", now), "week")).toBe("week");
    expect(chooseInterval(rangeFor("last_30_days", now), "minute")).toBe("day");
    expect(chooseInterval(rangeFor("today", now), "minute")).toBe("minute");
    expect(chooseInterval(rangeFor("today", now), "month")).toBe("hour");
    expect(intervalsFor(rangeFor("last_7_days", now)).options).toEqual(["hour", "day"]);
  });
});
