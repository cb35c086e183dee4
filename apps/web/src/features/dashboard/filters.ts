// Dashboard filters: the chips' words and the edits a click makes. The text form (the Stats API's
// `filters`, also used in the page's URL) is @lookout/schema's filter grammar, shared with the
// server: formatFilters, and parseFiltersLenient for URLs a person may have edited.
import type { Filter, FilterOp } from "@lookout/schema";

export const OP_WORDS: Record<FilterOp, string> = {
  is: "is",
  is_not: "is not",
  contains: "contains",
  not_contains: "does not contain",
  matches: "matches",
};

/** Adds `dimension is value`, replacing an earlier `is` filter on the same dimension. */
export function withFilter(filters: readonly Filter[], added: Filter): Filter[] {
  const kept = filters.filter((f) => !(f.dimension === added.dimension && f.op === added.op));
  return [...kept, added];
}

export function withoutFilter(filters: readonly Filter[], index: number): Filter[] {
  return filters.filter((_, i) => i !== index);
}

export const sameFilter = (a: Filter, b: Filter) =>
  a.dimension === b.dimension && a.op === b.op && a.values.join("\u0000") === b.values.join("\u0000");
