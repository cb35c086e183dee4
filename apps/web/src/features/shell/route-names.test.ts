import { describe, expect, it } from "vitest";
import { breadcrumbsFor } from "./route-names";

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
