// Paths in the insight registry: its name and help, and pageview paths of the last 30 days to
// start from. The editor and the Sankey load when first drawn (React.lazy), so that the list of
// saved insights, which reads the labels, does not carry ECharts.
import type { CsvCell, PathsAnswer } from "@lookout/schema";
import { createElement, lazy } from "react";
import type { KindResultProps, KindView } from "../types";

const PathsEditor = lazy(() => import("./PathsEditor").then((m) => ({ default: m.PathsEditor })));
const PathsChart = lazy(() => import("./PathsChart").then((m) => ({ default: m.PathsChart })));

export const pathsView: KindView<"paths"> = {
  label: "Paths",
  description: "The pages and events visitors go through within a visit, from a start point or to an end point, as a Sankey.",
  untitled: "Untitled paths",
  defaultSpec: { kind: "paths", period: "last_30_days", type: "pageview", steps: 5 },
  toCsv: pathsCsv,
  Editor: PathsEditor,
  Result: ({ propertyId, spec, answer }: KindResultProps<"paths">) => createElement(PathsChart, { propertyId, spec, answer }),
};

/** One row per drawn edge: the step it leaves, its source and target (tracked text) and its visitors. */
export function pathsCsv(answer: PathsAnswer): CsvCell[][] {
  return [
    ["step", "source", "target", "visitors"],
    ...answer.results.edges.map((e): CsvCell[] => [e.step, e.source, e.target, e.visitors]),
  ];
}
