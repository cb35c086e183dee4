// The timelines' planner and their page statement, apart from any store: which funnel specs a
// visitor timeline answers (timelineCovers), and the statement that decides page filters (the SQL
// path's own condition over a bound list, no value in its text). The answers themselves are
// checked against SQL in @lookout/storage (duckdb-timelines.test.ts, and the funnel suites' duckdb-timelines engine).
import { type FunnelSpecInput, FunnelSpecSchema } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { timelineCovers, timelinePagesSql } from "./funnel-timeline.js";

const base: FunnelSpecInput = {
  kind: "funnel",
  period: "last_30_days",
  steps: [{ event: "pageview", filters: "page~pricing" }, { event: "signup" }],
};
const covers = (over: Partial<FunnelSpecInput>) => timelineCovers(FunnelSpecSchema.parse({ ...base, ...over }));

describe("timelineCovers", () => {
  it("takes funnels whose every filter is on the page, in steps, exclusions and globally", () => {
    expect(covers({})).toBe(true);
    expect(covers({ filters: "page!~/admin" })).toBe(true);
    expect(
      covers({
        order: "strict",
        steps: [{ event: "pageview", filters: "page=~^/p;page!=/pricing/old" }, { event: "signup" }, { event: "purchase" }],
        exclusions: [{ event: "pageview", filters: "page==/cancel", between: [1, 3] }],
      }),
    ).toBe(true);
  });

  it("leaves to SQL a breakdown and any filter on another dimension", () => {
    expect(covers({ breakdown: "page" })).toBe(false);
    expect(covers({ filters: "country==DE" })).toBe(false);
    expect(covers({ steps: [{ event: "pageview", filters: "page~a;prop:plan==pro" }, { event: "signup" }] })).toBe(false);
    expect(covers({ exclusions: [{ event: "cancel", filters: "browser==Firefox", between: [1, 2] }] })).toBe(false);
  });
});

describe("timelinePagesSql", () => {
  it.each(["duckdb", "clickhouse"] as const)("binds every value, the pages' and the filters' (%s)", (dialect) => {
    const { sql, params } = timelinePagesSql("page~Pricing;page!=/pricing/old", dialect, ["/a'b", "/pricing"]);
    for (const v of ["Pricing", "/pricing/old", "/a'b", "/pricing"]) expect(sql).not.toContain(v);
    expect(Object.values(params).sort()).toEqual(["/a'b", "/pricing", "/pricing/old", "Pricing"]);
    expect(sql).not.toMatch(/'[^']*'/);
  });
});
