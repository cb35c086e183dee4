// The event slots' planner (trends-slots.ts trendsSlotsPlan), apart from printing: which series
// read slots, from which column's rows, and which read events.
import type { Filter } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { SLOT_MS } from "../event-slots.js";
import { type SlotsQuestion, trendsSlotsPlan } from "./trends-slots.js";

const DAY = 86_400_000;
const FROM = Date.parse("2024-05-01T22:00:00Z"); // Berlin's midnight
const f = (dimension: string, op: Filter["op"] = "is", values = ["x"]) => ({ dimension, op, values }) as Filter;
const ask = (o: Partial<SlotsQuestion> = {}) =>
  trendsSlotsPlan({
    d: { eventSlots: true },
    math: "unique_visitors",
    filters: [],
    breakdown: null,
    interval: "day",
    timezone: "Europe/Berlin",
    spans: [{ from: FROM, to: FROM + 30 * DAY }],
    ...o,
  });

describe("trendsSlotsPlan", () => {
  it("reads the rows of every event for an unfiltered count, and a kept column's for its breakdown", () => {
    expect(ask()).toMatchObject({
      dim: null,
      breakdown: false,
      cover: { slots: [{ from: FROM, to: FROM + 30 * DAY }], pieces: [] },
    });
    for (const math of ["total", "avg_per_visitor"] as const) expect(ask({ math })?.dim).toBeNull();
    expect(ask({ breakdown: "country" })).toMatchObject({ dim: "country", breakdown: true });
    expect(ask({ breakdown: "page", interval: "hour" })).toMatchObject({ dim: "page", breakdown: true });
  });

  it("reads one kept column's rows for filters on it alone, or on the breakdown's column", () => {
    expect(ask({ filters: [f("country"), f("country", "is_not", ["DE"])] })).toMatchObject({ dim: "country", breakdown: false });
    expect(ask({ filters: [f("browser", "contains", ["Fire"])], breakdown: "browser" })).toMatchObject({
      dim: "browser",
      breakdown: true,
    });
  });

  it("reads events for other maths, minute buckets, props, columns not kept, or two columns", () => {
    const none: Partial<SlotsQuestion>[] = [
      { d: { eventSlots: false } },
      { math: "sum" },
      { math: "median" },
      { interval: "minute" },
      { breakdown: "prop:plan" },
      { breakdown: "city" },
      { breakdown: "entry_page" },
      { filters: [f("prop:plan")] },
      { filters: [f("country"), f("browser")] },
      { filters: [f("country")], breakdown: "browser" },
    ];
    for (const o of none) expect([o, ask(o)]).toEqual([o, null]);
  });

  it("reads events when no whole slot lies in the spans, and takes half- and three-quarter-hour zones", () => {
    expect(ask({ spans: [{ from: FROM + 60_000, to: FROM + SLOT_MS - 1 }] })).toBeNull();
    for (const timezone of ["Asia/Kolkata", "Asia/Kathmandu"]) expect(ask({ timezone })).not.toBeNull();
  });
});
