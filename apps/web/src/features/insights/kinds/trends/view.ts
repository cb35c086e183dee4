// Trends in the insight registry: its name and help, and a pageview count over the last 30 days to
// start from. The editor and the chart load when first drawn (React.lazy), so that the list of
// saved insights, which reads the labels, does not carry ECharts.
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
  Editor: TrendsEditor,
  Result: ({ spec, answer }: KindResultProps<"trends">) => createElement(TrendsChart, { answer, display: spec.display }),
};
