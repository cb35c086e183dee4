import type { Filter } from "@lookout/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatFilters, parseFilters, withFilter, withoutFilter } from "./filters";
import { filterText } from "./labels";

describe("filters text", () => {
  it("reads the API's example", () => {
    expect(parseFilters("page==/pricing;country!=US|DE;page~blog")).toEqual([
      { dimension: "page", op: "is", values: ["/pricing"] },
      { dimension: "country", op: "is_not", values: ["US", "DE"] },
      { dimension: "page", op: "contains", values: ["blog"] },
    ]);
  });

  it("tells every operator apart", () => {
    const f = parseFilters("page==a;page!=b;page~c;page!~d;page=~^/e$");
    expect(f.map((x) => x.op)).toEqual(["is", "is_not", "contains", "not_contains", "matches"]);
    expect(f.map((x) => x.values[0])).toEqual(["a", "b", "c", "d", "^/e$"]);
  });

  it("escapes ; | and \\ inside values and reads them back", () => {
    const filters: Filter[] = [
      { dimension: "page", op: "is", values: ["/a;b", "c|d", "e\\f", "g\\;h"] },
      { dimension: "prop:plan", op: "contains", values: ["x==y"] },
    ];
    const text = formatFilters(filters);
    expect(text).toBe("page==/a\\;b|c\\|d|e\\\\f|g\\\\\\;h;prop:plan~x==y");
    expect(parseFilters(text)).toEqual(filters);
  });

  it("keeps empty values (the '(none)' row)", () => {
    const filters: Filter[] = [{ dimension: "referrer", op: "is", values: [""] }];
    expect(formatFilters(filters)).toBe("referrer==");
    expect(parseFilters("referrer==")).toEqual(filters);
  });

  it("skips parts it cannot read instead of failing", () => {
    expect(parseFilters("nonsense;bogus==1;page==/ok;==x;")).toEqual([{ dimension: "page", op: "is", values: ["/ok"] }]);
    expect(parseFilters(null)).toEqual([]);
    expect(parseFilters("")).toEqual([]);
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
        expect(parseFilters(new URLSearchParams(url).get("filters"))).toEqual(filters);
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
