// The export's CSV files in Plausible's export format (research/peers.md §6.1): each file's name,
// its columns in Plausible's order, and how a row comes from one Stats API breakdown of one day.
// The query layer breaks down by one dimension at a time, so the secondary columns Plausible
// groups by as well (referrer and UTM tags beside a source, a browser's version, an OS's version,
// region and city beside a country, link_url and path beside an event) are left empty: each row
// carries the totals of its primary dimension, equal to the Stats API's breakdown for that day.
import type { BaseDimension, CsvCell, ExportTable, Metric } from "@lookout/schema";

/** A Stats API row's metrics, with totals derived where Plausible stores totals. */
export interface DayMetrics {
  visitors: number;
  visits: number;
  pageviews: number;
  events: number;
  /** Total seconds: the average visit duration times the visits. */
  visit_duration: number;
  /** Bounced visits: the bounce rate times the visits. */
  bounces: number;
}

export interface BreakdownTable {
  name: Exclude<ExportTable, "imported_visitors">;
  dimension: BaseDimension;
  metrics: Metric[];
  columns: readonly string[];
  /** Rows the export leaves out (the pageviews and engagement among events). */
  skip?: (value: string) => boolean;
  row(date: string, value: string, m: DayMetrics, host: string): CsvCell[];
}

const SESSION_METRICS: Metric[] = ["visitors", "visits", "pageviews", "visit_duration", "bounce_rate"];

export const VISITORS_COLUMNS = ["date", "visitors", "pageviews", "bounces", "visits", "visit_duration"] as const;

export const BREAKDOWN_TABLES: readonly BreakdownTable[] = [
  {
    name: "imported_sources",
    dimension: "source",
    metrics: SESSION_METRICS,
    columns: [
      "date",
      "source",
      "referrer",
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "utm_content",
      "utm_term",
      "pageviews",
      "visitors",
      "visits",
      "visit_duration",
      "bounces",
    ],
    // Plausible writes direct traffic as an empty source.
    row: (d, v, m) => [
      d,
      v === "Direct / None" ? "" : v,
      "",
      "",
      "",
      "",
      "",
      "",
      m.pageviews,
      m.visitors,
      m.visits,
      m.visit_duration,
      m.bounces,
    ],
  },
  {
    name: "imported_pages",
    dimension: "page",
    metrics: ["visitors", "visits", "pageviews"],
    columns: ["date", "hostname", "page", "visits", "visitors", "pageviews"],
    row: (d, v, m, host) => [d, host, v, m.visits, m.visitors, m.pageviews],
  },
  {
    name: "imported_entry_pages",
    dimension: "entry_page",
    metrics: SESSION_METRICS,
    columns: ["date", "entry_page", "visitors", "entrances", "visit_duration", "bounces", "pageviews"],
    row: (d, v, m) => [d, v, m.visitors, m.visits, m.visit_duration, m.bounces, m.pageviews],
  },
  {
    name: "imported_exit_pages",
    dimension: "exit_page",
    metrics: SESSION_METRICS,
    columns: ["date", "exit_page", "visitors", "visit_duration", "exits", "bounces", "pageviews"],
    row: (d, v, m) => [d, v, m.visitors, m.visit_duration, m.visits, m.bounces, m.pageviews],
  },
  {
    name: "imported_custom_events",
    dimension: "event_name",
    metrics: ["visitors", "events"],
    columns: ["date", "name", "link_url", "path", "visitors", "events"],
    skip: (v) => v === "pageview" || v === "engagement",
    row: (d, v, m) => [d, v, "", "", m.visitors, m.events],
  },
  {
    name: "imported_locations",
    dimension: "country",
    metrics: SESSION_METRICS,
    columns: ["date", "country", "region", "city", "visitors", "visits", "visit_duration", "bounces", "pageviews"],
    row: (d, v, m) => [d, v, "", "", m.visitors, m.visits, m.visit_duration, m.bounces, m.pageviews],
  },
  {
    name: "imported_devices",
    dimension: "device",
    metrics: SESSION_METRICS,
    columns: ["date", "device", "visitors", "visits", "visit_duration", "bounces", "pageviews"],
    row: (d, v, m) => [d, v, m.visitors, m.visits, m.visit_duration, m.bounces, m.pageviews],
  },
  {
    name: "imported_browsers",
    dimension: "browser",
    metrics: SESSION_METRICS,
    columns: ["date", "browser", "browser_version", "visitors", "visits", "visit_duration", "bounces", "pageviews"],
    row: (d, v, m) => [d, v, "", m.visitors, m.visits, m.visit_duration, m.bounces, m.pageviews],
  },
  {
    name: "imported_operating_systems",
    dimension: "os",
    metrics: SESSION_METRICS,
    columns: [
      "date",
      "operating_system",
      "operating_system_version",
      "visitors",
      "visits",
      "visit_duration",
      "bounces",
      "pageviews",
    ],
    row: (d, v, m) => [d, v, "", m.visitors, m.visits, m.visit_duration, m.bounces, m.pageviews],
  },
];

/** Totals from a Stats API row (averages and rates times visits, rounded). */
export function dayMetrics(row: Record<string, string | number | undefined>): DayMetrics {
  const num = (k: string) => Number(row[k] ?? 0);
  const visits = num("visits");
  return {
    visitors: num("visitors"),
    visits,
    pageviews: num("pageviews"),
    events: num("events"),
    visit_duration: Math.round(num("visit_duration") * visits),
    bounces: Math.round((num("bounce_rate") * visits) / 100),
  };
}
