import type { Plan } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { bestYearlySaving, choiceFor, offeredPlans, sellsYearly, yearlySaving } from "./plans";

const plan = (id: string, month: number | null, year: number | null, hidden = false): Plan => ({
  id,
  name: id,
  limits: { events: 10_000, properties: 1, members: 1 },
  features: [],
  prices: { currency: "usd", month, year },
  hidden,
});

const PLANS = [plan("free", 0, 0, true), plan("starter", 900, 9000), plan("growth", 1900, 19000), plan("business", 3900, null)];
const [free, starter, growth, business] = PLANS as [Plan, Plan, Plan, Plan];

describe("offeredPlans", () => {
  it("leaves hidden plans out unless the account is on one", () => {
    expect(offeredPlans(PLANS, "growth").map((p) => p.id)).toEqual(["starter", "growth", "business"]);
    expect(offeredPlans(PLANS, "free").map((p) => p.id)).toEqual(["free", "starter", "growth", "business"]);
  });
});

describe("choiceFor", () => {
  it("calls a larger plan an upgrade and a smaller one a downgrade, by the file's order", () => {
    expect(choiceFor(PLANS, growth, "month", "starter", "month")).toBe("upgrade");
    expect(choiceFor(PLANS, starter, "month", "growth", "month")).toBe("downgrade");
    expect(choiceFor(PLANS, starter, "month", "free", null)).toBe("upgrade");
  });

  it("knows the current plan, and a change of interval on it", () => {
    expect(choiceFor(PLANS, growth, "month", "growth", "month")).toBe("current");
    expect(choiceFor(PLANS, growth, "year", "growth", "month")).toBe("switch_interval");
    expect(choiceFor(PLANS, free, "year", "free", null)).toBe("current");
  });

  it("does not sell a plan at an interval it has no price for", () => {
    expect(choiceFor(PLANS, business, "year", "starter", "month")).toBe("unavailable");
    expect(choiceFor(PLANS, business, "year", "business", "month")).toBe("unavailable");
  });

  it("treats every plan as an upgrade from a plan the file no longer has", () => {
    expect(choiceFor(PLANS, starter, "month", "legacy", "month")).toBe("upgrade");
  });
});

describe("yearly savings", () => {
  it("compares a year with twelve months, in whole percent", () => {
    expect(yearlySaving(starter)).toBe(17);
    expect(yearlySaving(business)).toBeNull();
    expect(yearlySaving(free)).toBeNull();
    expect(yearlySaving(plan("flat", 1000, 12000))).toBeNull();
    expect(bestYearlySaving(PLANS)).toBe(17);
    expect(bestYearlySaving([business])).toBeNull();
  });

  it("shows the toggle only when something is sold yearly", () => {
    expect(sellsYearly(PLANS)).toBe(true);
    expect(sellsYearly([business, free])).toBe(false);
  });
});
