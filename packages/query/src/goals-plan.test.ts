// The goals planner's decisions, without printing SQL: which rollup answers each goal, how its
// match is tested, and when the range's visitors are counted (goals-plan.ts).
import { describe, expect, it } from "vitest";
import { planGoal, planGoals } from "./goals-plan.js";

const base = {
  property: "p",
  timezone: "UTC",
  filters: [],
  period: { from: 0, to: 86_400_000 },
  order: [],
  limit: 100,
  offset: 0,
};

describe("planGoal", () => {
  it("reads a custom-event goal from session_events by name equality", () => {
    expect(planGoal({ kind: "event", name: "Signed up", match: "signup" })).toEqual({
      label: "Signed up",
      table: "session_events",
      column: "name",
      countColumn: "events",
      test: { op: "equals", value: "signup" },
    });
  });

  it("compares a page pattern without wildcards for equality (no regex)", () => {
    expect(planGoal({ kind: "page", name: "Visit /pricing", match: "/pricing" })).toMatchObject({
      table: "session_pages",
      column: "path",
      countColumn: "pageviews",
      test: { op: "equals", value: "/pricing" },
    });
  });

  it("turns wildcards into an anchored regex with the literal parts escaped", () => {
    expect(planGoal({ kind: "page", name: "Blog", match: "/blog/*/a.b(c)/**" }).test).toEqual({
      op: "regex",
      value: "^/blog/[^/]*/a\\.b\\(c\\)/.*$",
    });
  });
});

describe("planGoals", () => {
  it("keeps the goals in order and counts the range's visitors only for conversion_rate", () => {
    const goals = [
      { kind: "event" as const, name: "A", match: "a" },
      { kind: "page" as const, name: "B", match: "/b/*" },
    ];
    const without = planGoals({ ...base, metrics: ["visitors", "events"], goals });
    expect(without.goals.map((g) => g.label)).toEqual(["A", "B"]);
    expect(without.totalVisitors).toBe(false);
    expect(planGoals({ ...base, metrics: ["visitors", "conversion_rate"], goals }).totalVisitors).toBe(true);
  });

  it("sorts the filters as every kind does (visit-level semi-joins)", () => {
    const plan = planGoals({
      ...base,
      metrics: ["visitors"],
      goals: [{ kind: "event", name: "A", match: "a" }],
      filters: [
        { dimension: "country", op: "is", values: ["DE"] },
        { dimension: "page", op: "contains", values: ["x"] },
      ],
    });
    expect(plan.filters.session.map((x) => x.column)).toEqual(["country"]);
    expect(plan.filters.page).toHaveLength(1);
  });

  it("refuses a query without goals (runStats answers those without asking the store)", () => {
    expect(() => planGoals({ ...base, metrics: ["visitors"], goals: [] })).toThrow(/at least one goal/);
  });
});
