// The query-string -> QuerySpec mapping; the `filters` grammar itself is tested where it lives
// (packages/schema filter-grammar.test.ts), its errors here as the API's 400s.
import { describe, expect, it } from "vitest";
import { HttpError } from "../http/errors.js";
import { parseFilters, specFromQuery } from "./params.js";

describe("filters parameter", () => {
  it("names the parameter in its errors", () => {
    for (const bad of ["page", "nope==x", "page<>x", "==x"]) {
      try {
        parseFilters(bad);
        expect.unreachable(bad);
      } catch (err) {
        expect(err).toBeInstanceOf(HttpError);
        expect((err as HttpError).status).toBe(400);
        expect((err as HttpError).message).toMatch(/^filters: /);
      }
    }
  });
});

describe("specFromQuery", () => {
  const param = (kind: "aggregate" | "timeseries" | "breakdown", q: Record<string, unknown>) => {
    try {
      specFromQuery(kind, q);
      return null;
    } catch (err) {
      return (err as HttpError).details as { param: string };
    }
  };

  it("builds a breakdown spec with paging and order", () => {
    expect(
      specFromQuery("breakdown", {
        property_id: "p1",
        dimension: "page",
        metrics: "visitors,pageviews",
        limit: "10",
        page: "3",
        order: "pageviews:asc",
      }),
    ).toMatchObject({
      kind: "breakdown",
      dimensions: ["page"],
      limit: 10,
      offset: 20,
      order: { by: "pageviews", direction: "asc" },
    });
    expect(
      specFromQuery("aggregate", {
        property_id: "p1",
        period: "custom",
        date: "2024-01-01,2024-01-31",
        compare: "year_over_year",
      }),
    ).toMatchObject({
      date_range: { preset: "custom", from: "2024-01-01", to: "2024-01-31" },
      comparison: "year_over_year",
    });
  });

  it("answers 400 naming the bad parameter", () => {
    expect(param("aggregate", {})).toEqual({ param: "property_id" });
    expect(param("aggregate", { property_id: "p", period: "fortnight" })).toEqual({ param: "period" });
    expect(param("aggregate", { property_id: "p", period: "custom", date: "2024-02-30,2024-03-01" })).toEqual({ param: "date" });
    expect(param("aggregate", { property_id: "p", metrics: "visitors,clicks" })).toEqual({ param: "metrics" });
    expect(param("aggregate", { property_id: "p", metrics: "conversions" })).toEqual({ param: "goal" });
    expect(param("aggregate", { property_id: "p", period: "all_time", compare: "previous_period" })).toEqual({
      param: "compare",
    });
    expect(param("timeseries", { property_id: "p", interval: "second" })).toEqual({ param: "interval" });
    expect(param("breakdown", { property_id: "p" })).toEqual({ param: "dimension" });
    expect(param("breakdown", { property_id: "p", dimension: "page", limit: "0" })).toEqual({ param: "limit" });
    expect(param("breakdown", { property_id: "p", dimension: "page", order: "bounce_rate:desc" })).toEqual({ param: "order" });
    expect(param("aggregate", { property_id: ["a", "b"] })).toEqual({ param: "property_id" });
    expect(param("aggregate", { property_id: "p", filters: "page=~(?=x)" })).toEqual({ param: "filters" });
  });
});
