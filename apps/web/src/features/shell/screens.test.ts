import { describe, expect, it } from "vitest";
import { breadcrumbsFor, NAV, SCREEN_LIST } from "./screens";

describe("breadcrumbsFor", () => {
  it("names each route segment and marks the last one active", () => {
    expect(breadcrumbsFor("/product-analytics/insights/abc")).toEqual([
      { name: "Product Analytics", pathname: "/product-analytics", active: false },
      { name: "Insight", pathname: "/product-analytics/insights/abc", active: true },
    ]);
  });

  it("skips segments that are not routes of their own", () => {
    expect(breadcrumbsFor("/customers/c-1")).toEqual([{ name: "Visitor", pathname: "/customers/c-1", active: true }]);
  });

  it("has nothing after Home at the root or for unknown paths", () => {
    expect(breadcrumbsFor("/")).toEqual([]);
    expect(breadcrumbsFor("/nope")).toEqual([]);
  });

  it("ignores a trailing slash", () => {
    expect(breadcrumbsFor("/settings/")).toEqual([{ name: "Settings", pathname: "/settings", active: true }]);
  });
});

describe("the screen registry", () => {
  it("lists the sidebar entries of SPEC.md §2 in order, Logout last", () => {
    expect(NAV.map((e) => [e.name, e.to, Boolean(e.fullPage)])).toEqual([
      ["Dashboard", "/dashboard", false],
      ["Live View", "/live", false],
      ["Product Analytics", "/product-analytics", false],
      ["Settings", "/settings", false],
      ["Team", "/team", false],
      ["Billing", "/billing", false],
      ["Reports", "/reports", false],
      ["Logout", "/logout", true],
    ]);
  });

  it("names every signed-in route of SPEC.md §2", () => {
    expect(SCREEN_LIST.map((s) => [s.path, s.title])).toEqual([
      ["/dashboard", "Dashboard"],
      ["/customers/:clientId", "Visitor"],
      ["/live", "Live View"],
      ["/product-analytics", "Product Analytics"],
      ["/product-analytics/insights/:insightId", "Insight"],
      ["/settings", "Settings"],
      ["/team", "Team"],
      ["/billing", "Billing"],
      ["/reports", "Reports"],
    ]);
  });
});
