// Trends in the insight registry: its name and help, and a pageview count over the last 30 days to
// start from. The editor and the chart load when first drawn (React.lazy), so that the list of
// saved insights, which reads the labels, does not carry ECharts.
import { cilChartLine } from "@coreui/icons";
import type { CsvCell, TrendsAnswer } from "@lookout/schema";
import { createElement, lazy } from "react";
import type { KindResultProps, KindView } from "../types";

const TrendsEditor = lazy(() => import("./TrendsEditor").then((m) => ({ default: m.TrendsEditor })));
const TrendsChart = lazy(() => import("./TrendsChart").then((m) => ({ default: m.TrendsChart })));

export const trendsView: KindView<"trends"> = {
  label: "Trends",
  description: "Counts, visitors, sums or revenue of events over time, broken down and combined by formula.",
  untitled: "Untitled trend",
  defaultSpec: {
    kind: "trends",
    period: "last_30_days",
    series: [{ event: "pageview", math: "total" }],
    display: "line",
  },
  icon: cilChartLine,
  toCsv: trendsCsv,
  Editor: TrendsEditor,
  Result: ({ spec, answer }: KindResultProps<"trends">) => createElement(TrendsChart, { answer, display: spec.display }),
};

/**
 * One row per series (and breakdown value): its name, breakdown value, total, then one column per
 * date of the interval buckets (every series has the same buckets). With a comparison, each row is
 * followed by the earlier period's ("A: pageview · previous period"), its values under the dates
 * they set against (empty where the earlier period has no such bucket).
 */
export function trendsCsv(answer: TrendsAnswer): CsvCell[][] {
  const dates = answer.results[0]?.data.map((p) => p.date) ?? [];
  const header: CsvCell[] = ["series", "breakdown_value", "total", ...dates];
  const earlier = answer.comparison?.type === "year_over_year" ? "a year earlier" : "previous period";
  return [
    header,
    ...answer.results.flatMap((r): CsvCell[][] => [
      [r.series, r.breakdown_value ?? "", r.total, ...r.data.map((p) => p.value)],
      ...(r.comparison
        ? [
            [
              `${r.series} · ${earlier}`,
              r.breakdown_value ?? "",
              r.comparison.total,
              ...dates.map((_, j) => r.comparison?.data[j]?.value ?? null),
            ],
          ]
        : []),
    ]),
  ];
}
