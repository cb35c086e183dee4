// Which ranges refresh themselves (issue #19 "fresh numbers"): those that include today, never past
// ones; and the test override of the period.
import { afterEach, describe, expect, it } from "vitest";
import { includesToday, REFRESH_MS, refreshInterval } from "./queries";

const NOON = Date.parse("2026-03-10T12:00:00Z");

describe("includesToday", () => {
  it("is true for presets that end today and false for past ones", () => {
    for (const period of ["today", "last_7_days", "last_30_days", "month_to_date", "year_to_date", "all_time"] as const)
      expect(includesToday({ period }, NOON)).toBe(true);
    expect(includesToday({ period: "yesterday" }, NOON)).toBe(false);
    expect(includesToday({ period: "last_month" }, NOON)).toBe(false);
  });

  it("compares a custom range's end with the earliest today anywhere (UTC-12)", () => {
    expect(includesToday({ period: "custom", date: "2026-03-01,2026-03-10" }, NOON)).toBe(true);
    expect(includesToday({ period: "custom", date: "2026-03-01,2026-03-09" }, NOON)).toBe(false);
    // 08:00 UTC: it is still the 9th at UTC-12, so a range ending on the 9th may include today.
    expect(includesToday({ period: "custom", date: "2026-03-01,2026-03-09" }, Date.parse("2026-03-10T08:00:00Z"))).toBe(true);
    expect(includesToday({ period: "custom" }, NOON)).toBe(false);
  });
});

describe("refreshInterval", () => {
  afterEach(() => {
    delete (globalThis as { window?: unknown }).window;
  });

  it("is off on past ranges and REFRESH_MS (30–60 s) otherwise", () => {
    expect(refreshInterval({ period: "yesterday" })).toBe(false);
    expect(refreshInterval({ period: "today" })).toBe(REFRESH_MS);
    expect(REFRESH_MS).toBeGreaterThanOrEqual(30_000);
    expect(REFRESH_MS).toBeLessThanOrEqual(60_000);
  });

  it("takes the browser tests' shorter period when set", () => {
    (globalThis as { window?: unknown }).window = { __LOOKOUT_REFRESH_MS__: 500 };
    expect(refreshInterval({ period: "today" })).toBe(500);
    expect(refreshInterval({ period: "last_month" })).toBe(false);
  });
});
