// Exports of an insight's result: the answer as CSV (the kind's toCsv rows, cells escaped by the
// shared rule, so tracked text never runs as a spreadsheet formula) and the chart as PNG (the
// ECharts instance inside the result's box, read with getDataURL; ECharts loads on demand, as
// the chart itself did).
import type { InsightAnswer, InsightKind } from "@lookout/schema";
import { downloadCsv, safeFileName, toCsv } from "../dashboard/csv";
import type { KindView } from "./kinds/types";

export function exportCsv(view: KindView<InsightKind>, answer: InsightAnswer, name: string): void {
  if (!view.toCsv) return;
  const [header = [], ...rows] = view.toCsv(answer as never);
  downloadCsv(`${safeFileName(name) || "insight"}.csv`, toCsv(header.map(String), rows));
}

/** The first chart inside `box` as a PNG download; false when there is no chart to export. */
export async function exportPng(box: HTMLElement | null, name: string): Promise<boolean> {
  const el = box?.querySelector<HTMLElement>("[data-echarts], [_echarts_instance_]");
  if (!el) return false;
  const { echarts } = await import("../../components/charts/echarts-core");
  const chart = echarts.getInstanceByDom(el);
  if (!chart) return false;
  const background = getComputedStyle(document.body).backgroundColor || "#fff";
  const url = chart.getDataURL({ type: "png", pixelRatio: 2, backgroundColor: background });
  const a = document.createElement("a");
  a.href = url;
  a.download = `${safeFileName(name) || "insight"}.png`;
  document.body.append(a);
  a.click();
  a.remove();
  return true;
}
