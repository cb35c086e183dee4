// Funnels in the insight registry: its name and help, and a two-step funnel (a pageview, then a
// signup) to start from. The editor and the result load when first drawn (React.lazy), so that the
// list of saved insights, which reads the labels, does not carry ECharts.
import { lazy } from "react";
import type { KindView } from "../types";

const FunnelEditor = lazy(() => import("./FunnelEditor").then((m) => ({ default: m.FunnelEditor })));
const FunnelResult = lazy(() => import("./FunnelResult").then((m) => ({ default: m.FunnelResult })));

export const funnelView: KindView<"funnel"> = {
  label: "Funnel",
  description: "How many visitors go through 2–20 steps in order within a window, where they drop off and how long it takes.",
  untitled: "Untitled funnel",
  defaultSpec: {
    kind: "funnel",
    period: "last_30_days",
    steps: [{ event: "pageview" }, { event: "signup" }],
    window: { value: 14, unit: "day" },
    order: "sequential",
  },
  Editor: FunnelEditor,
  Result: FunnelResult,
};
