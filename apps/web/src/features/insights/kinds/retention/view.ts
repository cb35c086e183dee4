// Retention in the insight registry: its name and help, and a daily pageview-to-pageview grid over
// the last 30 days to start from. The editor and the grid load when first drawn (React.lazy), so
// that the list of saved insights, which reads the labels, does not carry them.
import type { CsvCell, RetentionAnswer } from "@lookout/schema";
import { lazy } from "react";
import type { KindView } from "../types";

const RetentionEditor = lazy(() => import("./RetentionEditor").then((m) => ({ default: m.RetentionEditor })));
const RetentionGrid = lazy(() => import("./RetentionGrid").then((m) => ({ default: m.RetentionGrid })));

export const retentionView: KindView<"retention"> = {
  label: "Retention",
  description: "Of the visitors who did a start event in a period, how many came back with a return event in each later period.",
  untitled: "Untitled retention",
  defaultSpec: {
    kind: "retention",
    period: "last_30_days",
    start_event: { event: "pageview" },
    return_event: { event: "pageview" },
    period_unit: "day",
    periods: 7,
    retention_type: "first_time",
    cumulative: false,
  },
  toCsv: retentionCsv,
  Editor: RetentionEditor,
  Result: RetentionGrid,
};

/**
 * One row per cohort: its date, size, whether its last period is still running, then the visitors
 * of each period (period_0 = the size; empty for a period that has not begun).
 */
export function retentionCsv(answer: RetentionAnswer): CsvCell[][] {
  const cohorts = answer.results.cohorts;
  const columns = Math.max(answer.periods, ...cohorts.map((c) => c.values.length));
  const header: CsvCell[] = ["cohort", "size", "incomplete", ...Array.from({ length: columns }, (_, i) => `period_${i}`)];
  return [
    header,
    ...cohorts.map((c): CsvCell[] => [
      c.date,
      c.size,
      c.incomplete ? "yes" : "no",
      ...Array.from({ length: columns }, (_, i) => c.values[i] ?? null),
    ]),
  ];
}
