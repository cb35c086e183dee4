import { BASE_DIMENSIONS, type Filter, FILTER_OPS, formatFilters, parseFiltersLenient, QUERY_LIMITS } from "@lookout/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { afterLoginTarget, loginPathFor } from "../../lib/return-to";
import { checkDraft, draftOf, emptyDraft, type FilterDraft, suggestionMatches } from "./filter-draft";
import { suggestionRequest } from "./filter-suggestions";
import { FILTER_DIMENSION_GROUPS, replaceFilter, withFilter, withoutFilter } from "./filters";
import { filterText } from "./labels";
import { readDashboardParams, writeDashboardParams } from "./url-state";

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

  it("puts an edited filter back in its place, dropping another with the same dimension and operator", () => {
    const a: Filter = { dimension: "page", op: "is", values: ["/a"] };
    const b: Filter = { dimension: "country", op: "is", values: ["DE"] };
    const c: Filter = { dimension: "page", op: "contains", values: ["blog"] };
    const edited: Filter = { dimension: "country", op: "is_not", values: ["FR"] };
    expect(replaceFilter([a, b, c], 1, edited)).toEqual([a, edited, c]);
    // Edited into the twin of another filter: that one goes, the edited one keeps its place.
    expect(replaceFilter([a, b, c], 0, { ...c, values: ["news"] })).toEqual([{ ...c, values: ["news"] }, b]);
  });

  it("says every operator in words, with country names, negatives listing their values", () => {
    expect(filterText({ dimension: "country", op: "is_not", values: ["US", "DE"] })).toBe(
      "Country is not United States, Germany",
    );
    expect(filterText({ dimension: "country", op: "is", values: ["DE", "FR"] })).toBe("Country is Germany or France");
    expect(filterText({ dimension: "page", op: "contains", values: ["blog"] })).toBe("Page contains blog");
    expect(filterText({ dimension: "page", op: "not_contains", values: ["blog", "news"] })).toBe(
      "Page does not contain blog, news",
    );
    expect(filterText({ dimension: "utm_campaign", op: "matches", values: ["^spring-"] })).toBe("UTM campaign matches ^spring-");
    expect(filterText({ dimension: "prop:plan", op: "is", values: ["pro"] })).toBe("Property plan is pro");
    expect(filterText({ dimension: "referrer", op: "is", values: [""] })).toBe("Referrer is (none)");
  });

  it("offers every dimension the Stats API filters by, once", () => {
    const offered = FILTER_DIMENSION_GROUPS.flatMap((g) => g.dimensions);
    expect([...offered].sort()).toEqual([...BASE_DIMENSIONS].sort());
  });
});

describe("filters with operators in the dashboard URL", () => {
  const everyOp: Filter[] = FILTER_OPS.map((op, i) => ({
    dimension: (["country", "page", "source", "prop:plan", "utm_campaign"] as const)[i] ?? "page",
    op,
    values: op === "matches" ? ["^/(blog|news)/"] : ["DE", "a;b|c"],
  }));

  it("reads back every operator after a reload", () => {
    const state = { range: { preset: "last_30_days" as const }, filters: everyOp, interval: null, metric: "visitors" as const };
    const url = `/dashboard?${writeDashboardParams(state).toString()}`;
    const reloaded = new URL(url, "http://x.invalid");
    expect(readDashboardParams(reloaded.searchParams).filters).toEqual(everyOp);
  });

  it("keeps them through sign-in (?next=)", () => {
    const state = { range: { preset: "last_7_days" as const }, filters: everyOp, interval: null, metric: "visitors" as const };
    const target = `/dashboard?${writeDashboardParams(state).toString()}`;
    const login = new URL(loginPathFor(target), "http://x.invalid");
    const back = new URL(afterLoginTarget(login.searchParams), "http://x.invalid");
    expect(back.pathname).toBe("/dashboard");
    expect(readDashboardParams(back.searchParams).filters).toEqual(everyOp);
  });
});

describe("the filter dialog's draft", () => {
  const draft = (patch: Partial<FilterDraft>): FilterDraft => ({ ...emptyDraft(), ...patch });

  it("makes a filter of the chosen values and the typed text", () => {
    expect(checkDraft(draft({ choice: "country", op: "is_not", values: ["DE"], typed: " FR " })).filter).toEqual({
      dimension: "country",
      op: "is_not",
      values: ["DE", "FR"],
    });
    expect(checkDraft(draft({ choice: "page", op: "contains", typed: "blog" })).filter).toEqual({
      dimension: "page",
      op: "contains",
      values: ["blog"],
    });
    // The empty value ("(none)") can be chosen from the suggestions.
    expect(checkDraft(draft({ choice: "referrer", values: [""] })).filter?.values).toEqual([""]);
  });

  it("asks for a value", () => {
    const c = checkDraft(draft({ choice: "page" }));
    expect(c.filter).toBeNull();
    expect(c.valuesError).toBe("Add at least one value.");
  });

  it("refuses a pattern the server would refuse, saying why, as it is typed", () => {
    for (const bad of ["(", "[a-", "(?=x)", "(a)\\1", ".{800}"]) {
      const c = checkDraft(draft({ op: "matches", typed: bad }));
      expect(c.filter, bad).toBeNull();
      expect(c.typedError, bad).toMatch(/^Not a pattern that can be used: /);
    }
    expect(checkDraft(draft({ op: "matches", typed: "(" })).typedError).toBe(
      "Not a pattern that can be used: invalid regular expression.",
    );
    expect(checkDraft(draft({ op: "matches", typed: "^/blog/[0-9]+$" })).filter).not.toBeNull();
    // The same text is fine as a plain value.
    expect(checkDraft(draft({ op: "contains", typed: "(" })).filter).not.toBeNull();
  });

  it("judges values added before the operator became matches", () => {
    const c = checkDraft(draft({ op: "matches", values: ["ok", "("] }));
    expect(c.filter).toBeNull();
    expect(c.valuesError).toBe("(: Not a pattern that can be used: invalid regular expression.");
  });

  it("takes a custom property by its typed name, within the server's limits", () => {
    expect(checkDraft(draft({ choice: "prop", propKey: " plan ", values: ["pro"] })).filter).toEqual({
      dimension: "prop:plan",
      op: "is",
      values: ["pro"],
    });
    expect(checkDraft(draft({ choice: "prop", propKey: "", values: ["pro"] })).keyError).toBe("Enter the property's name.");
    const long = "k".repeat(QUERY_LIMITS.maxPropKeyLength + 1);
    expect(checkDraft(draft({ choice: "prop", propKey: long, values: ["pro"] })).filter).toBeNull();
    expect(checkDraft(draft({ choice: "prop", propKey: "a\u0000b", values: ["x"] })).keyError).toMatch(/cannot be stored/);
  });

  it("limits the number of values", () => {
    const values = Array.from({ length: QUERY_LIMITS.maxValuesPerFilter + 1 }, (_, i) => `/p${i}`);
    expect(checkDraft(draft({ values })).valuesError).toBe(`At most ${QUERY_LIMITS.maxValuesPerFilter} values.`);
  });

  it("opens an existing filter as it was", () => {
    const f: Filter = { dimension: "prop:plan", op: "not_contains", values: ["tea", "pr"] };
    expect(checkDraft(draftOf(f)).filter).toEqual(f);
    const g: Filter = { dimension: "country", op: "is_not", values: ["DE", "FR"] };
    expect(checkDraft(draftOf(g)).filter).toEqual(g);
  });

  it("searches countries by name or code", () => {
    expect(suggestionMatches("country", "DE", "germ")).toBe(true);
    expect(suggestionMatches("country", "DE", "de")).toBe(true);
    expect(suggestionMatches("country", "FR", "germ")).toBe(false);
    expect(suggestionMatches("page", "/Blog/x", "blog")).toBe(true);
  });

  it("asks the server for the dimension's values under the other dimensions' filters, searched", () => {
    const query = {
      propertyId: "p1",
      period: "last_7_days" as const,
      filters: [],
      compare: "previous_period" as const,
    };
    const others: Filter[] = [
      { dimension: "page", op: "contains", values: ["blog"] },
      { dimension: "country", op: "is", values: ["US"] },
    ];
    const { q, o } = suggestionRequest(query, others, "page", " pri ");
    expect(q.filters).toEqual([
      { dimension: "country", op: "is", values: ["US"] },
      { dimension: "page", op: "contains", values: ["pri"] },
    ]);
    expect(q.compare).toBeNull();
    expect(o).toMatchObject({ metrics: ["visitors"], order: "visitors:desc" });
    // Countries are searched by name in the browser: the request leaves the text out.
    expect(suggestionRequest(query, others, "country", "germ").q.filters).toEqual([
      { dimension: "page", op: "contains", values: ["blog"] },
    ]);
  });
});
