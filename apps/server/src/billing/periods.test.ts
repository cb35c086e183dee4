// Billing periods at the account's anchor: month lengths, the anchor's time of day, now exactly
// on a boundary.
import { describe, expect, it } from "vitest";
import { periodIndex, periodStart, periodsAround } from "./periods.js";

const iso = (ms: number) => new Date(ms).toISOString();

describe("billing periods", () => {
  it("start on the anchor's day, on the month's last day when shorter", () => {
    const anchor = new Date("2026-01-31T00:00:00Z");
    expect([0, 1, 2, 3, 13].map((k) => iso(periodStart(anchor, k)))).toEqual([
      "2026-01-31T00:00:00.000Z",
      "2026-02-28T00:00:00.000Z",
      "2026-03-31T00:00:00.000Z",
      "2026-04-30T00:00:00.000Z",
      "2027-02-28T00:00:00.000Z",
    ]);
    expect(iso(periodStart(new Date("2027-12-29T06:30:00Z"), 2))).toBe("2028-02-29T06:30:00.000Z");
  });

  it("find the period of an instant, a boundary belonging to the period it starts", () => {
    const anchor = new Date("2026-01-15T12:00:00Z");
    expect(periodIndex(anchor, new Date("2026-03-15T11:59:59Z"))).toBe(1);
    expect(periodIndex(anchor, new Date("2026-03-15T12:00:00Z"))).toBe(2);
    expect(periodIndex(anchor, new Date("2025-12-20T00:00:00Z"))).toBe(-1);
    const p = periodsAround(anchor, new Date("2026-05-01T00:00:00Z"), 2);
    expect(p.boundaries.map(iso)).toEqual([
      "2026-02-15T12:00:00.000Z",
      "2026-03-15T12:00:00.000Z",
      "2026-04-15T12:00:00.000Z",
      "2026-05-15T12:00:00.000Z",
    ]);
    expect([iso(p.current.start), iso(p.current.end)]).toEqual(["2026-04-15T12:00:00.000Z", "2026-05-15T12:00:00.000Z"]);
  });
});
