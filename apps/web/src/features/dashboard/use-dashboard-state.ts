// The dashboard's view state and its two homes: the range and comparison live in the shared
// DateRangeProvider (kept while moving between screens), filters, interval and chart metric in the
// URL; the URL also mirrors the range and comparison so a view can be shared and reloaded.
// A URL that changes on its own (a pasted link, back/forward) wins; a range chosen in the picker
// is written back to the URL. Outside a shared page the URL also names the property
// (`?property=<unique_id>`), so a copied link opens the same site for any member; which property is
// current is decided by state/current-property, which reads that parameter first.
import type { Filter, Interval } from "@lookout/schema";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { apiPeriod, chooseInterval, intervalsFor } from "../../state/date-presets";
import { effectiveComparison, useDateRange } from "../../state/date-range";
import type { StatsQuery } from "./api";
import type { TopMetric } from "./metrics";
import { readDashboardParams, sameUrlRange, urlRangeOf, writeDashboardParams } from "./url-state";

/** A shared page's own URL parameters (sharing/SharePage), kept when the dashboard rewrites its URL. */
const SHARE_PAGE_PARAMS = ["embed", "theme"];

function keepShareParams(next: URLSearchParams, current: URLSearchParams): URLSearchParams {
  for (const k of SHARE_PAGE_PARAMS) {
    const v = current.get(k);
    if (v !== null) next.set(k, v);
  }
  return next;
}

export interface DashboardState {
  /** False until the URL and the shared range agree (nothing should load before). */
  ready: boolean;
  query: StatsQuery;
  filters: Filter[];
  setFilters: (filters: Filter[]) => void;
  interval: Interval;
  intervals: Interval[];
  setInterval: (interval: Interval) => void;
  metric: TopMetric;
  setMetric: (metric: TopMetric) => void;
}

/** `share`: on a shared page, the link's slug, which every Stats API call then carries. */
export function useDashboardState(propertyId: string, share?: string): DashboardState {
  const [params, setParams] = useSearchParams();
  const { range, choosePreset, chooseCustom, compare, chooseCompare } = useDateRange();
  const url = useMemo(() => readDashboardParams(params), [params]);
  const shownCompare = effectiveComparison(range, compare);
  const rangeInProvider = useMemo(() => urlRangeOf(range), [range]);
  const intervals = intervalsFor(range).options;
  // An interval picked for another range is dropped rather than kept in the URL.
  const askedInterval = url.interval && intervals.includes(url.interval) ? url.interval : null;
  const [ready, setReady] = useState(false);
  // A shared page's link names its property by its slug; the app's own dashboard names it here.
  const linkedProperty = share ? undefined : propertyId;
  const lastUrl = useRef<string | null>(null);
  /** Set while the provider has been told the URL's range and has not caught up yet. */
  const pending = useRef(false);

  useEffect(() => {
    const urlKey = JSON.stringify([url.range, url.compare]);
    const providerMatches =
      (!url.range || sameUrlRange(url.range, rangeInProvider)) && (url.compare === undefined || url.compare === compare);
    if (lastUrl.current !== urlKey) {
      lastUrl.current = urlKey;
      if (!providerMatches) {
        if (url.range && !sameUrlRange(url.range, rangeInProvider)) {
          if (url.range.preset === "custom") chooseCustom(url.range.from ?? "", url.range.to ?? "");
          else choosePreset(url.range.preset);
        }
        if (url.compare !== undefined && url.compare !== compare) chooseCompare(url.compare);
        pending.current = true;
      }
    }
    // Wait for the provider to take the URL's range before writing anything back.
    if (pending.current && !providerMatches) return;
    pending.current = false;
    const written = writeDashboardParams({
      ...url,
      property: linkedProperty,
      range: rangeInProvider,
      compare: shownCompare,
      interval: askedInterval,
    });
    const canonical = share ? keepShareParams(written, params) : written;
    if (canonical.toString() !== params.toString()) setParams(canonical, { replace: true });
    setReady(true);
  });

  const write = useCallback(
    (patch: Partial<{ filters: Filter[]; interval: Interval | null; metric: TopMetric }>, push: boolean) => {
      const next = writeDashboardParams({
        ...url,
        property: linkedProperty,
        range: rangeInProvider,
        compare: shownCompare,
        interval: askedInterval,
        ...patch,
      });
      setParams(share ? keepShareParams(next, params) : next, { replace: !push });
    },
    [url, linkedProperty, rangeInProvider, shownCompare, askedInterval, setParams, share, params],
  );

  const { period, date } = apiPeriod(range);
  const query = useMemo<StatsQuery>(
    () => ({ propertyId, period, date, filters: url.filters, compare: shownCompare, ...(share ? { share } : {}) }),
    [propertyId, period, date, url.filters, shownCompare, share],
  );

  return {
    ready,
    query,
    filters: url.filters,
    // A filter change is a step the back button can undo; the rest replace the entry.
    setFilters: (filters) => write({ filters }, true),
    interval: chooseInterval(range, askedInterval),
    intervals,
    setInterval: (interval) => write({ interval }, false),
    metric: url.metric,
    setMetric: (metric) => write({ metric }, false),
  };
}
