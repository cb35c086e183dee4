// Dashboard filters: the chips' words and the edits a click makes. The text form (the Stats API's
// `filters`, also used in the page's URL) is @lookout/schema's filter grammar, shared with the
// server: formatFilters, and parseFiltersLenient for URLs a person may have edited.
import type { BaseDimension, Filter, FilterOp } from "@lookout/schema";

export const OP_WORDS: Record<FilterOp, string> = {
  is: "is",
  is_not: "is not",
  contains: "contains",
  not_contains: "does not contain",
  matches: "matches",
};

/**
 * How a chip joins several values. A positive filter keeps rows matching any of them ("Page is
 * /a or /b"); a negative one keeps rows matching none, and "is not Germany or France" would read
 * as if either could be missing, so its values are listed ("Country is not Germany, France").
 */
export const OP_JOINERS: Record<FilterOp, string> = {
  is: " or ",
  is_not: ", ",
  contains: " or ",
  not_contains: ", ",
  matches: " or ",
};

/**
 * The dimensions the filter dialog offers, grouped as the panels show them: every dimension the
 * Stats API filters by (BASE_DIMENSIONS; a test checks none is missing). Custom props come on top.
 */
export const FILTER_DIMENSION_GROUPS: readonly { label: string; dimensions: readonly BaseDimension[] }[] = [
  { label: "Pages", dimensions: ["page", "entry_page", "exit_page", "hostname"] },
  {
    label: "Sources",
    dimensions: ["channel", "source", "referrer", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"],
  },
  { label: "Locations", dimensions: ["country", "region", "city"] },
  { label: "Devices", dimensions: ["browser", "browser_version", "os", "os_version", "device", "screen"] },
  { label: "Events", dimensions: ["event_name"] },
];

/** Adds a filter, replacing an earlier one with the same dimension and operator. */
export function withFilter(filters: readonly Filter[], added: Filter): Filter[] {
  const kept = filters.filter((f) => !(f.dimension === added.dimension && f.op === added.op));
  return [...kept, added];
}

/**
 * Puts an edited filter back in its place (a chip edited keeps its position). Another filter with
 * the same dimension and operator is dropped, as withFilter does, so the two never both apply.
 */
export function replaceFilter(filters: readonly Filter[], index: number, edited: Filter): Filter[] {
  return filters.flatMap((f, i) => (i === index ? [edited] : f.dimension === edited.dimension && f.op === edited.op ? [] : [f]));
}

export function withoutFilter(filters: readonly Filter[], index: number): Filter[] {
  return filters.filter((_, i) => i !== index);
}

export const sameFilter = (a: Filter, b: Filter) =>
  a.dimension === b.dimension && a.op === b.op && a.values.join("\u0000") === b.values.join("\u0000");
