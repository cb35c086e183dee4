// The saved-insights list's URL state (list-params.ts) and the trends CSV rows (trends/view.ts):
// unknown values read as defaults, defaults stay out of the URL, and CSV rows keep series,
// breakdown values and every bucket, with tracked text escaped by the shared cell rule.
import { csvLine } from "@lookout/schema";
import { describe, expect, it } from "vitest";
import { trendsCsv } from "./kinds/trends/view";
import { readListState, withListState } from "./list-params";

describe("list URL state", () => {
  it("reads known values and drops unknown ones", () => {
    const p = new URLSearchParams(
      "q=%20signup%20&kind=trends&tag=growth&creator=0b7c7e3e-3f8a-4a55-9d2c-1f1e2d3c4b5a&show=mine&sort=name",
    );
    expect(readListState(p)).toEqual({
      search: "signup",
      kind: "trends",
      tag: "growth",
      creator: "0b7c7e3e-3f8a-4a55-9d2c-1f1e2d3c4b5a",
      tab: "mine",
      sort: "name",
    });
    expect(readListState(new URLSearchParams("kind=pie&show=everything&sort=random&creator=x"))).toEqual({});
  });

  it("writes changes, leaving defaults and empty values out and other parameters alone", () => {
    const p = withListState(new URLSearchParams("tab=insights&q=old"), { search: "", tab: "favourites", sort: "updated" });
    expect(p.toString()).toBe("tab=insights&show=favourites");
    expect(withListState(p, { tab: "all", kind: "trends" }).toString()).toBe("tab=insights&kind=trends");
  });
});

describe("trends CSV", () => {
  it("has one row per series and breakdown value, with the total and every bucket", () => {
    const rows = trendsCsv({
      kind: "trends",
      results: [
        {
          series: "A: pageview",
          series_index: 0,
          breakdown_value: "=cmd()",
          total: 3,
          data: [
            { date: "2024-03-05", value: 1 },
            { date: "2024-03-06", value: 2 },
          ],
        },
        {
          series: "formula",
          series_index: null,
          total: null,
          data: [
            { date: "2024-03-05", value: null },
            { date: "2024-03-06", value: 0.5 },
          ],
        },
      ],
    } as never);
    expect(rows).toEqual([
      ["series", "breakdown_value", "total", "2024-03-05", "2024-03-06"],
      ["A: pageview", "=cmd()", 3, 1, 2],
      ["formula", "", null, null, 0.5],
    ]);
    // The shared rule escapes a formula-looking tracked value.
    expect(csvLine(rows[1] ?? [])).toBe("A: pageview,'=cmd(),3,1,2\r\n");
  });

  it("follows each row with the earlier period's when the answer has a comparison", () => {
    const rows = trendsCsv({
      kind: "trends",
      comparison: { type: "previous_period", first_day: "2024-03-03", last_day: "2024-03-04" },
      results: [
        {
          series: "A: pageview",
          series_index: 0,
          total: 3,
          data: [
            { date: "2024-03-05", value: 1 },
            { date: "2024-03-06", value: 2 },
          ],
          comparison: { total: 1, change: 200, data: [{ date: "2024-03-03", value: 1 }] },
        },
      ],
    });
    expect(rows).toEqual([
      ["series", "breakdown_value", "total", "2024-03-05", "2024-03-06"],
      ["A: pageview", "", 3, 1, 2],
      ["A: pageview · previous period", "", 1, 1, null],
    ]);
  });
});
