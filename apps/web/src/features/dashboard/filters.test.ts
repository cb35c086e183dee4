import { type Filter, formatFilters, parseFiltersLenient } from "@lookout/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withFilter, withoutFilter } from "./filters";
import { filterText } from "./labels";

// The grammar itself is tested with @lookout/schema (filter-grammar.test.ts); here, that the
// dashboard's URL carries any filters through unchanged.
describe("filters in the URL", () => {
  it("skips parts it cannot read instead of failing", () => {
    expect(parseFiltersLenient("nonsense;bogus==1;page==/ok;==x;")).toEqual([{ dimension: "page", op: "is", values: ["/ok"] }]);
  });

  it("round-trips any values through the URL", () => {
    const dims = ["page", "country", "utm_campaign", "prop:plan"] as const;
    const ops = ["is", "is_not", "contains", "not_contains", "matches"] as const;
    const filter = fc.record({
      dimension: fc.constantFrom(...dims),
      op: fc.constantFrom(...ops),
      values: fc.array(fc.string(), { minLength: 1, maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(filter, { minLength: 1, maxLength: 4 }), (filters) => {
        const url = new URLSearchParams({ filters: formatFilters(filters as Filter[]) }).toString();
        expect(parseFiltersLenient(new URLSearchParams(url).get("filters"))).toEqual(filters);
      }),
    );
  });
});

describe("filter edits and words", () => {
  it("replaces an earlier 'is' filter on the same dimension and removes by index", () => {
    const a: Filter = { dimension: "page", op: "is", values: ["/a"] };
    const b: Filter = { dimension: "country", op: "is", values: ["DE"] };
    const c: Filter = { dimension: "page", op: "is", values: ["/c"] };
    expect(withFilter([a, b], c)).toEqual([b, c]);
    expect(withoutFilter([a, b, c], 1)).toEqual([a, c]);
  });

  it("says a filter in words, with country names", () => {
    expect(filterText({ dimension: "country", op: "is_not", values: ["US", "DE"] })).toBe(
      "Country is not United States or Germany",
    );
    expect(filterText({ dimension: "page", op: "contains", values: ["blog"] })).toBe("Page contains blog");
    expect(filterText({ dimension: "referrer", op: "is", values: [""] })).toBe("Referrer is (none)");
  });
});
