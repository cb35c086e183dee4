// The filters grammar: strict for the API, lenient for URLs, and formatFilters its inverse.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FilterGrammarError, formatFilters, parseFilters, parseFiltersLenient, splitEscaped } from "./filter-grammar.js";
import type { Filter } from "./query.js";

describe("parseFilters (strict)", () => {
  it("parses each operator, several values and escapes", () => {
    expect(parseFilters("page==/pricing;country!=US|DE;page~blog;source!~bing;page=~^/docs/.*$;prop:plan==pro\\;team")).toEqual([
      { dimension: "page", op: "is", values: ["/pricing"] },
      { dimension: "country", op: "is_not", values: ["US", "DE"] },
      { dimension: "page", op: "contains", values: ["blog"] },
      { dimension: "source", op: "not_contains", values: ["bing"] },
      { dimension: "page", op: "matches", values: ["^/docs/.*$"] },
      { dimension: "prop:plan", op: "is", values: ["pro;team"] },
    ]);
    expect(parseFilters("")).toEqual([]);
    expect(parseFilters("  ")).toEqual([]);
    expect(parseFilters("page==a;;")).toEqual([{ dimension: "page", op: "is", values: ["a"] }]);
  });

  it("throws FilterGrammarError with a message that does not name the parameter", () => {
    for (const [bad, message] of [
      ["page", /^expected dimension, operator and value/],
      ["==x", /^expected dimension/],
      ["nope==x", /^unknown dimension "nope"/],
      ["page=x", /^unknown operator/],
    ] as const) {
      let caught: unknown;
      try {
        parseFilters(bad);
      } catch (err) {
        caught = err;
      }
      expect(caught, bad).toBeInstanceOf(FilterGrammarError);
      expect((caught as FilterGrammarError).message).toMatch(message);
      expect((caught as FilterGrammarError).param).toBe("filters");
    }
  });

  it("refuses more than 20 filters", () => {
    expect(() => parseFilters(Array.from({ length: 21 }, () => "page==a").join(";"))).toThrow(/at most 20 filters/);
  });
});

describe("parseFiltersLenient", () => {
  it("skips parts it cannot read instead of failing", () => {
    expect(parseFiltersLenient("nonsense;bogus==1;page==/ok;==x;")).toEqual([{ dimension: "page", op: "is", values: ["/ok"] }]);
    expect(parseFiltersLenient(null)).toEqual([]);
    expect(parseFiltersLenient(undefined)).toEqual([]);
    expect(parseFiltersLenient("")).toEqual([]);
  });

  it("keeps empty values (the '(none)' row)", () => {
    const filters: Filter[] = [{ dimension: "referrer", op: "is", values: [""] }];
    expect(formatFilters(filters)).toBe("referrer==");
    expect(parseFiltersLenient("referrer==")).toEqual(filters);
  });
});

describe("formatFilters", () => {
  it("escapes ; | and \\ inside values", () => {
    const filters: Filter[] = [
      { dimension: "page", op: "is", values: ["/a;b", "c|d", "e\\f", "g\\;h"] },
      { dimension: "prop:plan", op: "contains", values: ["x==y"] },
    ];
    const text = formatFilters(filters);
    expect(text).toBe("page==/a\\;b|c\\|d|e\\\\f|g\\\\\\;h;prop:plan~x==y");
    expect(parseFilters(text)).toEqual(filters);
  });

  it("round-trips any filters through both readers", () => {
    const filter = fc.record({
      dimension: fc.constantFrom("page", "country", "utm_campaign", "prop:plan", "prop:a;b|c"),
      op: fc.constantFrom("is", "is_not", "contains", "not_contains", "matches"),
      values: fc.array(fc.string(), { minLength: 1, maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(filter, { minLength: 1, maxLength: 4 }), (generated) => {
        // A prop key with ; or | cannot be written (keys are not escaped): keep to writable ones.
        const filters = generated.filter((f) => !/[;|\\]/.test(f.dimension)) as Filter[];
        const text = formatFilters(filters);
        expect(parseFiltersLenient(text)).toEqual(filters);
        if (filters.length > 0) expect(parseFilters(text)).toEqual(filters);
      }),
    );
  });
});

describe("splitEscaped", () => {
  it("keeps or drops escapes", () => {
    expect(splitEscaped("a\\;b;c", ";", true)).toEqual(["a\\;b", "c"]);
    expect(splitEscaped("a\\;b;c", ";")).toEqual(["a;b", "c"]);
    expect(splitEscaped("trailing\\", ";")).toEqual(["trailing\\"]);
  });
});
