// Lifecycle in the insight registry: its name and help, and daily pageviews over the last 30 days to
// start from. The editor and the chart load when first drawn (React.lazy).
import type { CsvCell, LifecycleAnswer } from "@lookout/schema";
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
  toCsv: lifecycleCsv,
  Editor: LifecycleEditor,
  Result: LifecycleChart,
};

/** One row per interval: its first day and the four statuses (dormant negative, as answered). */
export function lifecycleCsv(answer: LifecycleAnswer): CsvCell[][] {
  return [
    ["date", "new", "returning", "resurrecting", "dormant"],
    ...answer.results.map((p): CsvCell[] => [p.date, p.new, p.returning, p.resurrecting, p.dormant]),
  ];
}
