// What of the dashboard lives in its URL, so a view can be shared and reloaded:
// `?property=<unique_id>&period=last_30_days&filters=page%3D%3D%2Fpricing&compare=previous_period`,
// plus `date` for a custom range, `interval` when one was picked and `metric` for the chart's
// metric. `property` names the site so a link opens it for any member (state/current-property reads
// it; readLinkedProperty in state/property-selection).
import {
  COMPARISONS,
  type Comparison,
  type Filter,
  formatFilters,
  INTERVALS,
  type Interval,
  parseFiltersLenient,
} from "@lookout/schema";
import { type DateRange, isFixedPreset, type Preset, parseIsoDate } from "../../state/date-presets";
import { PROPERTY_PARAM, readLinkedProperty } from "../../state/property-selection";
import { isTopMetric, type TopMetric } from "./metrics";

/** A range as the URL names it: a preset, and the two dates of a custom one. */
export interface UrlRange {
  preset: Preset;
  from?: string;
  to?: string;
}

export interface DashboardUrlState {
  /** The site the view is of; absent on a shared page, whose link already names it. */
  property?: string;
  /** Absent when the URL names no valid range (the shared range then stands). */
  range?: UrlRange;
  /** Absent when the URL says nothing; null for "no comparison". */
  compare?: Comparison | null;
  filters: Filter[];
  interval: Interval | null;
  metric: TopMetric;
}

export const DEFAULT_METRIC: TopMetric = "visitors";

export function readDashboardParams(p: URLSearchParams): DashboardUrlState {
  const state: DashboardUrlState = {
    // A hand-edited URL should not break the page: unreadable filters are left out.
    filters: parseFiltersLenient(p.get("filters")),
    interval: (INTERVALS as readonly string[]).includes(p.get("interval") ?? "") ? (p.get("interval") as Interval) : null,
    metric: isTopMetric(p.get("metric")) ? (p.get("metric") as TopMetric) : DEFAULT_METRIC,
  };
  const property = readLinkedProperty(p);
  if (property) state.property = property;
  const period = p.get("period") ?? "";
  if (isFixedPreset(period)) state.range = { preset: period };
  else if (period === "custom") {
    const [from = "", to = "", ...more] = (p.get("date") ?? "").split(",");
    if (more.length === 0 && parseIsoDate(from) && parseIsoDate(to) && from <= to) state.range = { preset: "custom", from, to };
  }
  if (p.has("compare")) {
    const c = p.get("compare") ?? "";
    state.compare = (COMPARISONS as readonly string[]).includes(c) ? (c as Comparison) : null;
  }
  return state;
}

export function urlRangeOf(range: DateRange): UrlRange {
  return range.preset === "custom" ? { preset: "custom", from: range.firstDay, to: range.lastDay } : { preset: range.preset };
}

export function sameUrlRange(a: UrlRange | undefined, b: UrlRange | undefined): boolean {
  return a?.preset === b?.preset && a?.from === b?.from && a?.to === b?.to;
}

export function writeDashboardParams(
  s: Required<Pick<DashboardUrlState, "range">> & Omit<DashboardUrlState, "range">,
): URLSearchParams {
  const p = new URLSearchParams();
  if (s.property) p.set(PROPERTY_PARAM, s.property);
  p.set("period", s.range.preset);
  if (s.range.preset === "custom" && s.range.from && s.range.to) p.set("date", `${s.range.from},${s.range.to}`);
  if (s.compare) p.set("compare", s.compare);
  if (s.filters.length > 0) p.set("filters", formatFilters(s.filters));
  if (s.interval) p.set("interval", s.interval);
  if (s.metric !== DEFAULT_METRIC) p.set("metric", s.metric);
  return p;
}
