// The dashboard's server state as TanStack Query hooks, each under an explicit key that holds
// everything its request depends on. While a new key loads, the previous answer stays on show
// (keepPreviousData, the panel marked busy) so panels do not jump; answers to a request that is
// no longer wanted are aborted and never shown. A 401 is the query client's one handler's.
// Ranges that include today refetch on a timer while the page is visible (fresh numbers); the
// refetch keeps the same key, so the answer on show stays until the new one replaces it.
import type { BreakdownDimension, Interval, Metric } from "@lookout/schema";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { type BreakdownOptions, getAggregate, getBreakdown, getRealtimeVisitors, getTimeseries, type StatsQuery } from "./api";

/** The query of one property's stats, without the property (it is the key's second part). */
const rest = ({ propertyId: _, ...q }: StatsQuery) => q;

export const statsKeys = {
  all: ["stats"] as const,
  property: (propertyId: string) => ["stats", propertyId] as const,
  aggregate: (q: StatsQuery, metrics: readonly Metric[]) => ["stats", q.propertyId, "aggregate", rest(q), metrics] as const,
  /** Whether the property has any event at all (all time, no filters). */
  hasEvents: (propertyId: string, share?: string) => ["stats", propertyId, "has-events", share ?? null] as const,
  realtime: (propertyId: string, share?: string) => ["stats", propertyId, "realtime", share ?? null] as const,
  timeseries: (q: StatsQuery, metrics: readonly Metric[], interval: Interval) =>
    ["stats", q.propertyId, "timeseries", rest(q), metrics, interval] as const,
  breakdown: (q: StatsQuery, dimension: BreakdownDimension, o: BreakdownOptions) =>
    ["stats", q.propertyId, "breakdown", rest({ ...q, compare: null }), dimension, o] as const,
};

/** How often a range that includes today is refetched (30–60 s, issue #19). */
export const REFRESH_MS = 45_000;

declare global {
  interface Window {
    /** Browser tests shorten the refresh period with this; nothing in the app sets it. */
    __LOOKOUT_REFRESH_MS__?: number;
  }
}

/**
 * Whether the query's range can still change, i.e. includes today. A custom range's end is a
 * calendar date in the property's timezone, which this hook does not know: it is compared with
 * today's date at UTC-12, the earliest "today" anywhere, so a range ending today is never missed
 * (at worst a range that ended yesterday refetches a few hours longer).
 */
export function includesToday(q: Pick<StatsQuery, "period" | "date">, now = Date.now()): boolean {
  switch (q.period) {
    case "yesterday":
    case "last_month":
      return false;
    case "custom": {
      const end = q.date?.split(",")[1];
      if (!end) return false;
      return end >= new Date(now - 12 * 3_600_000).toISOString().slice(0, 10);
    }
    default:
      return true;
  }
}

/**
 * The refetch period for a query: off for past ranges. TanStack Query pauses the timer while the
 * tab is hidden (refetchIntervalInBackground is false) and refetches when it is shown again.
 */
export function refreshInterval(q: Pick<StatsQuery, "period" | "date">): number | false {
  if (!includesToday(q)) return false;
  const override = typeof window === "undefined" ? undefined : window.__LOOKOUT_REFRESH_MS__;
  return typeof override === "number" && override > 0 ? override : REFRESH_MS;
}

export function useAggregate(q: StatsQuery, metrics: readonly Metric[], enabled = true) {
  return useQuery({
    queryKey: statsKeys.aggregate(q, metrics),
    queryFn: ({ signal }) => getAggregate(q, metrics, signal),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: () => refreshInterval(q),
  });
}

/**
 * Does the property have any data at all? Asked only when the range shows no visitors (to choose
 * between "no data for this range" and the tracker snippet). Once visitors were seen the answer
 * is yes for good, so it is written into the cache and never asked again in this tab.
 */
export function useHasEvents(propertyId: string, visitorsInRange: number | undefined, share?: string) {
  const client = useQueryClient();
  const seen = visitorsInRange !== undefined && visitorsInRange > 0;
  useEffect(() => {
    if (seen) client.setQueryData(statsKeys.hasEvents(propertyId, share), true);
  }, [seen, client, propertyId, share]);
  const query = useQuery({
    queryKey: statsKeys.hasEvents(propertyId, share),
    queryFn: async ({ signal }) => {
      const all = await getAggregate({ propertyId, period: "all_time", filters: [], share }, ["visitors"], signal);
      return (all.visitors?.value ?? 0) > 0;
    },
    enabled: visitorsInRange === 0,
    // A "yes" stays true; a "no" is asked again whenever it is needed (the snippet's recheck).
    staleTime: (q) => (q.state.data === true ? Number.POSITIVE_INFINITY : 0),
    // Kept for the life of the tab, as the "yes" is; a boolean per property costs nothing.
    gcTime: Number.POSITIVE_INFINITY,
  });
  return { ...query, known: seen || query.data === true };
}

export function useTimeseries(q: StatsQuery, metrics: readonly Metric[], interval: Interval) {
  return useQuery({
    queryKey: statsKeys.timeseries(q, metrics, interval),
    queryFn: ({ signal }) => getTimeseries(q, metrics, interval, signal),
    placeholderData: keepPreviousData,
    refetchInterval: () => refreshInterval(q),
  });
}

export function useBreakdown(q: StatsQuery, dimension: BreakdownDimension, o: BreakdownOptions) {
  return useQuery({
    queryKey: statsKeys.breakdown(q, dimension, o),
    queryFn: ({ signal }) => getBreakdown(q, dimension, o, signal),
    placeholderData: keepPreviousData,
    refetchInterval: () => refreshInterval(q),
  });
}

/** Visitors on the site now, from the Stats API (a shared page has no live socket), every 30 s. */
export function useRealtimeVisitors(propertyId: string, share?: string) {
  return useQuery({
    queryKey: statsKeys.realtime(propertyId, share),
    queryFn: ({ signal }) => getRealtimeVisitors(propertyId, signal, share),
    refetchInterval: 30_000,
  });
}
