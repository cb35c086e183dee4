// Funnels in the insight registry: its name and help, and a two-step funnel (a pageview, then a
// signup) to start from. The editor and the result load when first drawn (React.lazy), so that the
// list of saved insights, which reads the labels, does not carry ECharts.
import type { CsvCell, FunnelAnswer, FunnelStepResult } from "@lookout/schema";
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
  toCsv: funnelCsv,
  Editor: FunnelEditor,
  Result: FunnelResult,
};

/**
 * One row per step: first the funnel's own steps (breakdown_value empty), then each breakdown
 * value's, with visitors, both conversions (%), drop-off and the times from the previous step.
 */
export function funnelCsv(answer: FunnelAnswer): CsvCell[][] {
  const header: CsvCell[] = [
    "breakdown_value",
    "step",
    "label",
    "visitors",
    "conversion_pct",
    "conversion_from_previous_pct",
    "dropped",
    "median_seconds",
    "average_seconds",
  ];
  const rows = (bv: string, steps: FunnelStepResult[]) =>
    steps.map((s): CsvCell[] => [
      bv,
      s.step,
      s.label,
      s.visitors,
      s.conversion,
      s.conversion_from_previous,
      s.dropped,
      s.median_seconds,
      s.average_seconds,
    ]);
  return [
    header,
    ...rows("", answer.results.steps),
    ...(answer.results.breakdowns ?? []).flatMap((b) => rows(b.breakdown_value, b.steps)),
  ];
}
