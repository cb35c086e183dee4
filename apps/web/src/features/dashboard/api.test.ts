// The Stats API client: the URLs it builds and how it reads (and refuses) answers.
import { afterEach, describe, expect, it, vi } from "vitest";
import { getAggregate, getBreakdown, getTimeseries, type StatsQuery, StatsShapeError, statsUrl } from "./api";

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

describe("answers", () => {
  const q: StatsQuery = { propertyId: "p", period: "last_7_days", filters: [] };
  const answer = (body: unknown) => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    vi.stubGlobal("localStorage", { getItem: () => "token" });
    vi.stubGlobal("document", { cookie: "" });
    return fetch;
  };
  afterEach(() => vi.unstubAllGlobals());

  it("reads an aggregate and passes the abort signal on", async () => {
    const fetch = answer({ results: { visitors: { value: 3, comparison: null, change: null } } });
    const signal = new AbortController().signal;
    expect(await getAggregate(q, ["visitors"], signal)).toEqual({ visitors: { value: 3, comparison: null, change: null } });
    expect(fetch.mock.calls[0]?.[1]?.signal).toBe(signal);
  });

  it("refuses an aggregate without an asked metric or with a wrong shape", async () => {
    answer({ results: { visitors: { value: 3, comparison: null, change: null } } });
    await expect(getAggregate(q, ["visitors", "pageviews"])).rejects.toBeInstanceOf(StatsShapeError);
    answer({ results: { visitors: 3 } });
    await expect(getAggregate(q, ["visitors"])).rejects.toBeInstanceOf(StatsShapeError);
  });

  it("reads timeseries points with and without comparison, missing metrics as 0", async () => {
    answer({
      results: [
        { date: "2025-01-01", visitors: 2, comparison: { date: "2024-12-25" } },
        { date: "2025-01-02", visitors: 1, comparison: null },
      ],
    });
    expect(await getTimeseries(q, ["visitors"], "day")).toEqual([
      { date: "2025-01-01", values: { visitors: 2 }, comparison: { date: "2024-12-25", values: { visitors: 0 } } },
      { date: "2025-01-02", values: { visitors: 1 }, comparison: null },
    ]);
    answer({ results: [{ visitors: 1 }] });
    await expect(getTimeseries(q, ["visitors"], "day")).rejects.toBeInstanceOf(StatsShapeError);
  });

  it("reads breakdown rows under the dimension's name", async () => {
    answer({
      results: [
        { page: "/a", visitors: 4 },
        { page: "", visitors: 1 },
      ],
    });
    expect(await getBreakdown(q, "page", { metrics: ["visitors"], limit: 10 })).toEqual([
      { value: "/a", values: { visitors: 4 } },
      { value: "", values: { visitors: 1 } },
    ]);
    answer({ results: [{ page: null }] });
    await expect(getBreakdown(q, "page", { metrics: ["visitors"], limit: 10 })).rejects.toBeInstanceOf(StatsShapeError);
  });
});
