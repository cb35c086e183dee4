// The saved-insights list's state in the URL, so that a filtered list can be shared and reloaded:
// `q` (search), `kind`, `tag`, `creator`, `show` (the tab; `tab` already chooses insights or
// visitors on /product-analytics) and `sort`. Unknown values read as the defaults, which are left
// out of the URL.
import {
  ACCOUNT_ID_RE,
  INSIGHT_KINDS,
  INSIGHT_LIST_SORTS,
  INSIGHT_LIST_TABS,
  type InsightListQuery,
  type InsightListSort,
  type InsightListTab,
} from "@lookout/schema";

export type ListState = Partial<InsightListQuery>;

const oneOf = <T extends string>(all: readonly T[], v: string | null): T | undefined =>
  v !== null && (all as readonly string[]).includes(v) ? (v as T) : undefined;

export function readListState(params: URLSearchParams): ListState {
  const state: ListState = {};
  const search = params.get("q")?.trim();
  if (search) state.search = search.slice(0, 200);
  const kind = oneOf(INSIGHT_KINDS, params.get("kind"));
  if (kind) state.kind = kind;
  const tag = params.get("tag");
  if (tag) state.tag = tag.slice(0, 50);
  const creator = params.get("creator");
  if (creator && ACCOUNT_ID_RE.test(creator)) state.creator = creator;
  const tab = oneOf<InsightListTab>(INSIGHT_LIST_TABS, params.get("show"));
  if (tab && tab !== "all") state.tab = tab;
  const sort = oneOf<InsightListSort>(INSIGHT_LIST_SORTS, params.get("sort"));
  if (sort && sort !== "updated") state.sort = sort;
  return state;
}

const URL_NAMES: Record<keyof ListState, string> = {
  search: "q",
  kind: "kind",
  tag: "tag",
  creator: "creator",
  tab: "show",
  sort: "sort",
};

/** `params` with `change` applied: an empty or default value removes its parameter. */
export function withListState(params: URLSearchParams, change: ListState): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const [key, value] of Object.entries(change) as [keyof ListState, string | undefined][]) {
    const name = URL_NAMES[key];
    const isDefault = (key === "tab" && value === "all") || (key === "sort" && value === "updated");
    if (!value || isDefault) out.delete(name);
    else out.set(name, value);
  }
  return out;
}
