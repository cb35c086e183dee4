// Stickiness in the insight registry: its name and help, and daily pageviews over the last 30 days
// to start from. The editor and the chart load when first drawn (React.lazy).
import type { CsvCell, StickinessAnswer } from "@lookout/schema";
import { lazy } from "react";
import type { KindView } from "../types";

const StickinessEditor = lazy(() => import("./StickinessEditor").then((m) => ({ default: m.StickinessEditor })));
const StickinessChart = lazy(() => import("./StickinessChart").then((m) => ({ default: m.StickinessChart })));

export const stickinessView: KindView<"stickiness"> = {
  label: "Stickiness",
  description: "How many visitors did an event on exactly n days (weeks, months) of the range, or on n or more.",
  untitled: "Untitled stickiness",
  defaultSpec: { kind: "stickiness", period: "last_30_days", interval: "day", event: { event: "pageview" }, cumulative: false },
  toCsv: stickinessCsv,
  Editor: StickinessEditor,
  Result: StickinessChart,
};

/** One row per n: the number of intervals and the visitors active in exactly n (or, cumulative, n or more). */
export function stickinessCsv(answer: StickinessAnswer): CsvCell[][] {
  const unit = `${answer.interval}s`;
  const header: CsvCell[] = [unit, answer.cumulative ? "visitors_n_or_more" : "visitors_exactly_n"];
  return [header, ...answer.results.map((r): CsvCell[] => [r.intervals, r.visitors])];
}
