// The dashboard the budget is about (DESIGN.md §8): top stats with comparison, the chart, and
// every breakdown panel, over 90 days — what the web app fires in parallel when it opens.
import type { Dimension, QuerySpecInput } from "@lookout/schema";

export function dashboardSpecs(property: string): Record<string, QuerySpecInput> {
  const date_range = { preset: "last_90_days" } as const;
  const panel = (dimension: Dimension, metrics: QuerySpecInput["metrics"] = ["visitors"]): QuerySpecInput => ({
    kind: "breakdown",
    property,
    date_range,
    dimensions: [dimension],
    metrics,
    limit: 10,
  });
  return {
    top_stats: {
      kind: "aggregate",
      property,
      date_range,
      comparison: "previous_period",
      metrics: ["visitors", "visits", "pageviews", "views_per_visit", "bounce_rate", "visit_duration"],
    },
    chart: { kind: "timeseries", property, date_range, interval: "day", metrics: ["visitors", "pageviews"] },
    page: panel("page", ["visitors", "pageviews"]),
    entry_page: panel("entry_page"),
    exit_page: panel("exit_page"),
    source: panel("source"),
    channel: panel("channel"),
    referrer: panel("referrer"),
    utm_campaign: panel("utm_campaign"),
    country: panel("country"),
    region: panel("region"),
    browser: panel("browser"),
    os: panel("os"),
    device: panel("device"),
    event_name: panel("event_name", ["visitors", "events"]),
  };
}
