import { describe, expect, it } from "vitest";
import { statsUrl } from "./stats-api";

describe("statsUrl", () => {
  it("encodes every parameter and leaves out the empty ones", () => {
    const url = statsUrl(
      "breakdown",
      {
        propertyId: "abc",
        period: "custom",
        date: "2025-01-01,2025-01-31",
        filters: [{ dimension: "page", op: "is", values: ["/a b&c"] }],
        compare: null,
      },
      { dimension: "page", limit: 10, order: "visitors:desc", goal: undefined },
    );
    expect(url).toBe(
      "/api/v1/stats/breakdown?property_id=abc&period=custom&date=2025-01-01%2C2025-01-31&filters=page%3D%3D%2Fa%20b%26c&dimension=page&limit=10&order=visitors%3Adesc",
    );
  });

  it("sends date only with a custom period", () => {
    const url = statsUrl("aggregate", {
      propertyId: "p",
      period: "last_7_days",
      date: "x",
      filters: [],
      compare: "previous_period",
    });
    expect(url).toBe("/api/v1/stats/aggregate?property_id=p&period=last_7_days&compare=previous_period");
  });
});
