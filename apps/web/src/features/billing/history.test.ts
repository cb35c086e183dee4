import type { BillingAnswer } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { historyBars, PERIODS_SHOWN } from "./history";

function period(month: number, events: number) {
  return {
    period_start: new Date(Date.UTC(2025, month, 1)).toISOString(),
    period_end: new Date(Date.UTC(2025, month + 1, 1)).toISOString(),
    events,
    limit: 100,
    over_margin: events >= 110,
  };
}

const usage = {
  period_start: "2026-11-01T00:00:00.000Z",
  period_end: "2026-12-01T00:00:00.000Z",
  events: 42,
  projected: 60,
  percent: 4.2,
  by_property: [],
} satisfies BillingAnswer["usage"];

describe("historyBars", () => {
  it("puts the current period last, with the current plan's limit, after the complete ones", () => {
    const bars = historyBars(
      { history: [period(9, 90), period(10, 120)], usage, limits: { events: 1000, properties: null, members: null } },
      "en-GB",
    );
    expect(bars.map((b) => [b.label, b.events, b.limit, b.current])).toEqual([
      ["Oct", 90, 100, false],
      ["Nov", 120, 100, false],
      ["Nov", 42, 1000, true],
    ]);
    expect(bars[0]?.title).toBe("1 Oct – 31 Oct 2025");
    expect(bars[2]?.title).toBe("1 Nov – 30 Nov 2026, this period");
  });

  it("shows 12 periods at most: the 11 latest complete ones and the current one", () => {
    const history = Array.from({ length: 14 }, (_, i) => period(i, i));
    const bars = historyBars({ history, usage, limits: { events: null, properties: null, members: null } }, "en-GB");
    expect(bars).toHaveLength(PERIODS_SHOWN);
    expect(bars[0]?.events).toBe(3);
    expect(bars.at(-1)).toMatchObject({ current: true, limit: null });
  });

  it("draws a new account's current period alone", () => {
    expect(historyBars({ history: [], usage, limits: { events: 100, properties: 1, members: 1 } })).toHaveLength(1);
  });
});
