// Retention in the insight registry: its name and help, and a daily pageview-to-pageview grid over
// the last 30 days to start from. The editor and the grid load when first drawn (React.lazy), so
// that the list of saved insights, which reads the labels, does not carry them.
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
  Editor: RetentionEditor,
  Result: RetentionGrid,
};
