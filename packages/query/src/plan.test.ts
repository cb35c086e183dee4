// The planner's decisions, checked on the plan itself (no SQL printed): which rows answer a query,
// which joins the metrics need, and where the prev_* and day-rollup fast paths apply — only where
// they are exact (tables.ts, day-rollup.ts say why).
import type { Dimension, Filter, Metric } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { GRAIN_TABLE, type PlanInput, planQuery } from "./plan.js";

const DAY = 86_400_000;
const FROM = Date.parse("2024-03-01T00:00:00Z");
const TO = Date.parse("2024-03-08T00:00:00Z");
const dayNumber = (ms: number) => Math.round(ms / DAY);

function input(over: Partial<PlanInput> = {}): PlanInput {
  return {
    property: "p",
    timezone: "UTC",
    metrics: ["visitors"],
    filters: [],
    goal: undefined,
    key: { by: "none" },
    periods: [{ from: FROM, to: TO }],
    order: [],
    limit: 1,
    offset: 0,
    prevColumns: true,
    dayRollups: true,
    dayRollupThrough: undefined,
    ...over,
  };
}
const by = (dimension: Dimension) => ({ key: { by: "dimension", dimension } }) as const;
const is = (dimension: Dimension, ...values: string[]): Filter => ({ dimension, op: "is", values });
const metrics = (...m: Metric[]) => ({ metrics: m });

describe("grain: which rows answer", () => {
  const cases: [string, Partial<PlanInput>, string, string][] = [
    ["a total", {}, "sessions", "sessions"],
    ["a visit-level dimension", by("source"), "sessions", "sessions"],
    ["pages", by("page"), "pages", "session_pages"],
    ["custom event names", by("event_name"), "events", "session_events"],
    ["event names under a prop filter", { ...by("event_name"), filters: [is("prop:plan", "pro")] }, "raw_events", "events"],
    ["a prop", by("prop:plan"), "props", "events"],
  ];
  for (const [name, over, grain, table] of cases) {
    it(`${name}: ${grain} from ${table}`, () => {
      const plan = planQuery(input(over));
      expect(plan.grain).toBe(grain);
      expect(GRAIN_TABLE[plan.grain]).toBe(table);
    });
  }

  it("names the visit column of a visit-level dimension", () => {
    expect(planQuery(input(by("source"))).dimensionColumn).toBe("referrer_source");
    expect(planQuery(input(by("page"))).dimensionColumn).toBeNull();
  });
});

describe("joins the metrics need", () => {
  it("reads visit sums from the visit row when nothing narrows them", () => {
    const plan = planQuery(input(metrics("pageviews", "bounce_rate", "events")));
    expect(plan.visitColumns.map((c) => c.as ?? c.expr)).toEqual(["bounce", "duration", "s_pageviews", "s_engaged", "s_events"]);
    expect(plan.joins).toEqual({ visit: false, matchingPages: false, matchingEvents: null, conversions: null });
  });

  it("counts only the matching pages and custom events under positive page and event filters", () => {
    const filters = [is("page", "/a"), is("event_name", "signup")];
    const plan = planQuery(input({ ...metrics("pageviews", "events"), filters }));
    expect(plan.joins.matchingPages).toBe(true);
    expect(plan.joins.matchingEvents).toBe("session_events");
    expect(plan.visitColumns).toEqual([]);
    expect(plan.positivePages).toEqual([filters[0]]);
    // Prop conditions need the raw events.
    const withProp = planQuery(input({ ...metrics("events"), filters: [is("prop:plan", "pro")] }));
    expect(withProp.joins.matchingEvents).toBe("events");
  });

  it("joins the visit row to grains that are not visits where a metric reads it", () => {
    expect(planQuery(input({ ...by("page"), ...metrics("visitors", "pageviews") })).joins.visit).toBe(false);
    expect(planQuery(input({ ...by("page"), ...metrics("bounce_rate") })).joins.visit).toBe(true);
    expect(planQuery(input({ ...by("event_name"), ...metrics("pageviews") })).joins.visit).toBe(true);
    // Raw events carry no visit start: always joined.
    expect(planQuery(input(by("prop:plan"))).joins.visit).toBe(true);
  });

  it("joins the goal only for conversion metrics", () => {
    expect(planQuery(input({ ...metrics("visitors", "conversion_rate"), goal: "buy" })).joins.conversions).toBe("buy");
    expect(planQuery(input({ goal: "buy" })).joins.conversions).toBeNull();
  });
});

describe("prev_* fast path: visitors as a filtered COUNT where exact", () => {
  const prev = (over: Partial<PlanInput>) => planQuery(input(over)).prevColumn;
  it("applies without filters, and with one single-value `is` on the grain's own column", () => {
    expect(prev({})).toBe("prev_any");
    expect(prev(by("country"))).toBe("prev_country");
    expect(prev(by("page"))).toBe("prev_path");
    expect(prev(by("event_name"))).toBe("prev_name");
    expect(prev({ filters: [is("country", "DE")] })).toBe("prev_country");
    expect(prev({ ...by("country"), filters: [is("country", "DE")] })).toBe("prev_country");
    expect(prev({ ...by("page"), filters: [is("page", "/a")] })).toBe("prev_path");
  });

  it("falls back to COUNT(DISTINCT) where an earlier matching visit may be another row", () => {
    expect(prev({ filters: [is("country", "DE", "FR")] })).toBeNull();
    expect(prev({ filters: [{ dimension: "country", op: "is_not", values: ["DE"] }] })).toBeNull();
    expect(prev({ filters: [is("page", "/")] })).toBeNull();
    expect(prev({ ...by("country"), filters: [is("device", "mobile")] })).toBeNull();
    expect(prev({ ...by("page"), filters: [is("country", "DE")] })).toBeNull();
    expect(prev(by("prop:plan"))).toBeNull();
    expect(prev({ prevColumns: false })).toBeNull(); // a store that keeps no prev_* columns
  });
});

describe("day-rollup fast path", () => {
  const THROUGH = Date.parse("2024-03-06T00:00:00Z");
  const days = (over: Partial<PlanInput> = {}) => planQuery(input({ dayRollupThrough: THROUGH, ...over }));

  it("reads the whole days before the rows' end from day rows and the rest from the visit rollups", () => {
    const plan = days(metrics("visitors", "bounce_rate"));
    expect(plan.dayRollup).toEqual({ dim: "any", ingredients: ["visitors", "bounces", "visits"] });
    expect(plan.periods).toEqual([
      { from: FROM, to: TO, dayRows: { fromDay: dayNumber(FROM), toDay: dayNumber(THROUGH), restFrom: THROUGH } },
    ]);
  });

  it("keys the rows by the breakdown's dimension", () => {
    expect(days(by("source")).dayRollup?.dim).toBe("referrer_source");
    expect(days(by("page")).dayRollup?.dim).toBe("path");
    expect(days(by("event_name")).dayRollup?.dim).toBe("name");
    expect(days({ key: { by: "bucket", interval: "week" } }).dayRollup?.dim).toBe("any");
  });

  it("is not used where day rows cannot answer exactly", () => {
    expect(days({ filters: [is("country", "DE")] }).dayRollup).toBeNull();
    expect(days({ ...metrics("visitors", "conversions"), goal: "buy" }).dayRollup).toBeNull();
    expect(days(by("prop:plan")).dayRollup).toBeNull();
    expect(days({ key: { by: "bucket", interval: "hour" } }).dayRollup).toBeNull();
    expect(days({ dayRollupThrough: undefined }).dayRollup).toBeNull();
    expect(days({ dayRollups: false }).dayRollup).toBeNull();
  });

  it("skips a period that does not start at a local midnight or has no whole day in the rows", () => {
    expect(days({ periods: [{ from: FROM + 3_600_000, to: TO }] }).periods[0]?.dayRows).toBeNull();
    expect(days({ periods: [{ from: THROUGH, to: TO }] }).periods[0]?.dayRows).toBeNull();
    // Midnight in the property's timezone (Berlin: 23:00 UTC in March), not UTC's.
    const shift = (ms: number) => ms - 3_600_000;
    const periods = [{ from: shift(FROM), to: shift(TO) }];
    const berlin = days({ timezone: "Europe/Berlin", periods, dayRollupThrough: shift(THROUGH) });
    expect(berlin.periods[0]?.dayRows).toEqual({ fromDay: dayNumber(FROM), toDay: dayNumber(THROUGH), restFrom: shift(THROUGH) });
  });

  it("plans each period of a comparison on its own", () => {
    const plan = days({
      periods: [
        { from: FROM, to: TO },
        { from: FROM - 7 * DAY, to: FROM },
      ],
    });
    expect(plan.periods[1]?.dayRows).toEqual({ fromDay: dayNumber(FROM) - 7, toDay: dayNumber(FROM), restFrom: FROM });
  });
});
