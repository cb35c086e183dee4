// Lifecycle in the insight registry: its name and help, and daily pageviews over the last 30 days to
// start from. The editor and the chart load when first drawn (React.lazy).
import { lazy } from "react";
import type { KindView } from "../types";

const LifecycleEditor = lazy(() => import("./LifecycleEditor").then((m) => ({ default: m.LifecycleEditor })));
const LifecycleChart = lazy(() => import("./LifecycleChart").then((m) => ({ default: m.LifecycleChart })));

export const lifecycleView: KindView<"lifecycle"> = {
  label: "Lifecycle",
  description:
    "Per interval, the visitors who did an event split into new, returning and resurrecting, and those who went dormant.",
  untitled: "Untitled lifecycle",
  defaultSpec: { kind: "lifecycle", period: "last_30_days", interval: "day", event: { event: "pageview" } },
  Editor: LifecycleEditor,
  Result: LifecycleChart,
};
