// The allow-lists: every metric and every dimension of the QuerySpec maps to SQL here, in records
// the type checker proves complete. A spec can name nothing that is not in these two tables.
//
// Metric definitions (DESIGN.md §4), all over the visits that started in the range:
//   visitors        distinct visitor_id
//   visits          visits (session_id)
//   pageviews       "pageview" events
//   views_per_visit pageviews / visits
//   bounce_rate     % of visits with one pageview and no custom event (engagement, pageleave and
//                   identify are not interactive)
//   visit_duration  mean of (last event - first event) per visit, bounces included as 0 s
//   events          custom events (not pageview/engagement/pageleave/identify)
//   conversions     distinct visitors with a visit in which the goal event happened
//   conversion_rate conversions / visitors, %
//   time_on_page    engaged time reported by engagement pings / pageviews, seconds
import type { BaseDimension, Metric } from "@lookout/schema";
import type { Dialect } from "./dialects.js";
import { SESSION_DIMENSION_COLUMNS, type SessionDimensionColumn } from "./tables.js";

/** The aggregate building blocks of one query; print.ts picks them per grain and joins (plan.ts). */
export interface Ingredients {
  visitors: string;
  visits: string;
  pageviews: string;
  engagedMs: string;
  events: string;
  bounces: string;
  durationSum: string;
  conversions: string;
}

export const METRIC_SQL: Record<Metric, (i: Ingredients, d: Dialect) => string> = {
  visitors: (i) => i.visitors,
  visits: (i) => i.visits,
  pageviews: (i) => i.pageviews,
  views_per_visit: (i, d) => d.div(i.pageviews, i.visits),
  bounce_rate: (i, d) => `100 * ${d.div(i.bounces, i.visits)}`,
  visit_duration: (i, d) => d.div(i.durationSum, i.visits),
  events: (i) => i.events,
  conversions: (i) => i.conversions,
  conversion_rate: (i, d) => `100 * ${d.div(i.conversions, i.visitors)}`,
  time_on_page: (i, d) => `${d.div(i.engagedMs, i.pageviews)} / 1000`,
};

/** Metrics that read the visit row (bounce flag, duration) whatever the grain. */
export const VISIT_ROW_METRICS: ReadonlySet<Metric> = new Set(["bounce_rate", "visit_duration"]);
export const PAGEVIEW_METRICS: ReadonlySet<Metric> = new Set(["pageviews", "views_per_visit", "time_on_page"]);

/**
 * Where a dimension lives. Session dimensions are attributes of the visit (its first event, its
 * entry/exit pageview); `page` and `event_name` are things a visit contains several of.
 */
export type DimensionLevel = { level: "session"; column: SessionDimensionColumn } | { level: "page" } | { level: "event" };

const session = (d: keyof typeof SESSION_DIMENSION_COLUMNS): DimensionLevel => ({
  level: "session",
  column: SESSION_DIMENSION_COLUMNS[d],
});

export const DIMENSION_LEVELS: Record<BaseDimension, DimensionLevel> = {
  page: { level: "page" },
  entry_page: session("entry_page"),
  exit_page: session("exit_page"),
  hostname: session("hostname"),
  source: session("source"),
  referrer: session("referrer"),
  channel: session("channel"),
  utm_source: session("utm_source"),
  utm_medium: session("utm_medium"),
  utm_campaign: session("utm_campaign"),
  utm_term: session("utm_term"),
  utm_content: session("utm_content"),
  country: session("country"),
  region: session("region"),
  city: session("city"),
  browser: session("browser"),
  browser_version: session("browser_version"),
  os: session("os"),
  os_version: session("os_version"),
  device: session("device"),
  screen: session("screen"),
  event_name: { level: "event" },
};
