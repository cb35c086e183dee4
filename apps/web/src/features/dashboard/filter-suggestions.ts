// Value suggestions for the filter dialog: the Stats API's breakdown of the chosen dimension within
// the dashboard's range and its filters on other dimensions (one on the same dimension would hide
// the values the person may want to switch to), top values by visitors, searched on the server with a
// `contains` filter as the person types (debounced). Countries are searched by name here instead:
// the server only sees codes, and there are few enough to fetch at once.
import { type Dimension, type Filter, isPropDimension } from "@lookout/schema";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { type BreakdownOptions, getBreakdown, type StatsQuery } from "./api";
import { suggestionMatches } from "./filter-draft";
import { statsKeys } from "./queries";

export const SUGGESTION_LIMIT = 20;
/** More than there are country codes: the country list is fetched whole, searched by name here. */
const COUNTRY_LIMIT = 300;
export const SEARCH_DEBOUNCE_MS = 250;

export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** The breakdown request behind the suggestions (exported for its test). */
export function suggestionRequest(
  query: StatsQuery,
  others: readonly Filter[],
  dimension: Dimension,
  search: string,
): { q: StatsQuery; o: BreakdownOptions } {
  const term = search.trim();
  // Filters on the same dimension would hide the values the person may want to switch to.
  const filters: Filter[] = others.filter((f) => f.dimension !== dimension);
  const serverSearch = dimension !== "country" && term !== "";
  if (serverSearch) filters.push({ dimension, op: "contains", values: [term] });
  return {
    q: { ...query, filters, compare: null },
    o: { metrics: ["visitors"], limit: dimension === "country" ? COUNTRY_LIMIT : SUGGESTION_LIMIT, order: "visitors:desc" },
  };
}

export function useFilterSuggestions(query: StatsQuery, others: readonly Filter[], chosen: Dimension | null, typed: string) {
  const search = useDebounced(typed.trim().slice(0, 200), SEARCH_DEBOUNCE_MS);
  // A custom property's name is typed too: asked for once it stops changing.
  const settled = useDebounced(chosen, SEARCH_DEBOUNCE_MS);
  const dimension = chosen && isPropDimension(chosen) && settled !== chosen ? null : chosen;
  // Countries are searched locally, so their request does not change with the text.
  const asked = dimension === "country" ? "" : search;
  const req = useMemo(
    () => (dimension ? suggestionRequest(query, others, dimension, asked) : null),
    [query, others, dimension, asked],
  );
  const res = useQuery({
    queryKey: req && dimension ? [...statsKeys.breakdown(req.q, dimension, req.o), "suggestions"] : ["stats", "none"],
    queryFn: ({ signal }) => (req && dimension ? getBreakdown(req.q, dimension, req.o, signal) : Promise.resolve([])),
    enabled: req !== null,
    // While a new search loads the last list stays, but never another dimension's values.
    placeholderData: (prev, prevQuery) => (prevQuery?.queryKey[4] === dimension ? prev : undefined),
    staleTime: 30_000,
  });
  const values = useMemo(() => {
    if (!dimension || !res.data) return [];
    const all = res.data.map((r) => r.value);
    return dimension === "country" ? all.filter((v) => suggestionMatches(dimension, v, typed)).slice(0, SUGGESTION_LIMIT) : all;
  }, [res.data, dimension, typed]);
  const searching = search !== typed.trim().slice(0, 200) || dimension !== chosen;
  return { values, loading: res.isFetching, error: res.error, searching };
}
