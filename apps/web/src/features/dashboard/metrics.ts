// The dashboard's metrics: their names, how their values read, and their definitions (DESIGN.md
// §4) for the help popovers, so what a card says is exactly what the query engine counts.
import type { Metric } from "@lookout/schema";
import { formatCount, formatDecimal, formatDuration, formatFull, formatPercent } from "../../lib/format";

export const TOP_METRICS = [
  "visitors",
  "visits",
  "pageviews",
  "views_per_visit",
  "bounce_rate",
  "visit_duration",
] as const satisfies readonly Metric[];
export type TopMetric = (typeof TOP_METRICS)[number];

interface MetricInfo {
  label: string;
  /** A shorter column heading. */
  short: string;
  help: string;
  format: (n: number) => string;
  /** The exact value, for a title or an export. */
  exact: (n: number) => string;
  lowerIsBetter?: boolean;
}

export const METRIC_INFO: Record<Metric, MetricInfo> = {
  visitors: {
    label: "Unique visitors",
    short: "Visitors",
    help: "Distinct visitors in the range: each visitor (visitor_id) counts once, however often they came.",
    format: formatCount,
    exact: formatFull,
  },
  visits: {
    label: "Visits",
    short: "Visits",
    help: "A visit is one visitor's run of events with gaps under 30 minutes; a longer pause starts a new visit.",
    format: formatCount,
    exact: formatFull,
  },
  pageviews: {
    label: "Pageviews",
    short: "Pageviews",
    help: "The number of pages viewed: every pageview event, repeated views of a page included.",
    format: formatCount,
    exact: formatFull,
  },
  views_per_visit: {
    label: "Views per visit",
    short: "Views/visit",
    help: "Pageviews divided by visits: how many pages a visit sees on average.",
    format: formatDecimal,
    exact: formatDecimal,
  },
  bounce_rate: {
    label: "Bounce rate",
    short: "Bounce rate",
    help: "The share of visits that bounced: a visit with one pageview and no interactive custom event. Bounces divided by visits; lower is better.",
    format: formatPercent,
    exact: formatPercent,
    lowerIsBetter: true,
  },
  visit_duration: {
    label: "Visit duration",
    short: "Duration",
    help: "The time from a visit's first event to its last, averaged over all visits; a bounce counts as 0 s.",
    format: formatDuration,
    exact: formatDuration,
  },
  events: {
    label: "Events",
    short: "Events",
    help: "Custom events sent by the site (not pageviews, engagement pings or leaves).",
    format: formatCount,
    exact: formatFull,
  },
  conversions: {
    label: "Conversions",
    short: "Conversions",
    help: "Distinct visitors with a visit in which the goal event happened.",
    format: formatCount,
    exact: formatFull,
  },
  conversion_rate: {
    label: "Conversion rate",
    short: "CR",
    help: "Visitors who sent the event divided by all visitors in the range (with the same filters), in percent.",
    format: formatPercent,
    exact: formatPercent,
  },
  time_on_page: {
    label: "Time on page",
    short: "Time on page",
    help: "Engaged time reported by the tracker's engagement pings while the page is visible, per pageview.",
    format: formatDuration,
    exact: formatDuration,
  },
};

export function isTopMetric(v: string | null | undefined): v is TopMetric {
  return (TOP_METRICS as readonly string[]).includes(v ?? "");
}
