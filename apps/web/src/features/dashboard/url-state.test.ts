import { describe, expect, it } from "vitest";
import { readDashboardParams, writeDashboardParams } from "./url-state";

describe("dashboard URL", () => {
  it("writes the shareable form of the brief", () => {
    const p = writeDashboardParams({
      range: { preset: "last_30_days" },
      compare: "previous_period",
      filters: [{ dimension: "page", op: "is", values: ["/pricing"] }],
      interval: null,
      metric: "visitors",
    });
    expect(p.toString()).toBe("period=last_30_days&compare=previous_period&filters=page%3D%3D%2Fpricing");
  });

  it("reads back what it wrote, custom ranges and escaped values included", () => {
    const state = {
      range: { preset: "custom" as const, from: "2025-01-01", to: "2025-01-31" },
      compare: "year_over_year" as const,
      filters: [
        { dimension: "page" as const, op: "contains" as const, values: ["a;b|c\\d"] },
        { dimension: "country" as const, op: "is_not" as const, values: ["US", "DE"] },
      ],
      interval: "week" as const,
      metric: "bounce_rate" as const,
    };
    const url = writeDashboardParams(state).toString();
    expect(readDashboardParams(new URLSearchParams(url))).toEqual(state);
  });

  it("ignores what it cannot use", () => {
    const s = readDashboardParams(new URLSearchParams("period=forever&compare=sideways&interval=fortnight&metric=nope"));
    expect(s.range).toBeUndefined();
    expect(s.compare).toBeNull();
    expect(s.interval).toBeNull();
    expect(s.metric).toBe("visitors");
    expect(readDashboardParams(new URLSearchParams("period=custom&date=2025-02-01,2025-01-01")).range).toBeUndefined();
    expect(readDashboardParams(new URLSearchParams("period=custom&date=2025-02-30,2025-03-01")).range).toBeUndefined();
    expect(readDashboardParams(new URLSearchParams("")).compare).toBeUndefined();
  });

  it("names the property first, so a link opens the same site", () => {
    const p = writeDashboardParams({
      property: "p1",
      range: { preset: "custom", from: "2025-01-01", to: "2025-01-31" },
      filters: [{ dimension: "country", op: "is", values: ["DE"] }],
      interval: null,
      metric: "visitors",
    });
    expect(p.toString()).toBe("property=p1&period=custom&date=2025-01-01%2C2025-01-31&filters=country%3D%3DDE");
    const back = readDashboardParams(p);
    expect(back.property).toBe("p1");
    expect(back.range).toEqual({ preset: "custom", from: "2025-01-01", to: "2025-01-31" });
    expect(back.filters).toEqual([{ dimension: "country", op: "is", values: ["DE"] }]);
  });

  it("leaves out a property that cannot be a unique_id", () => {
    expect(readDashboardParams(new URLSearchParams("property=%2F%2Fevil&period=day")).property).toBeUndefined();
    expect(readDashboardParams(new URLSearchParams("period=day")).property).toBeUndefined();
  });
});
