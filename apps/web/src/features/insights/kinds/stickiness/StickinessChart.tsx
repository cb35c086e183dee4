// A stickiness answer as bars: visitors per number of active intervals (ECharts), with the chart's
// numbers as its accessible label.
import type { StickinessAnswer } from "@lookout/schema";
import { BarChart } from "echarts/charts";
import { useMemo } from "react";
import { useChartColors } from "../../../../components/charts/chart-colors";
import { EChart } from "../../../../components/charts/EChart";
import { echarts, escapeHtml } from "../../../../components/charts/echarts-core";
import type { KindResultProps } from "../types";

echarts.use([BarChart]);

/** "3 days", or "≥ 3 days" when cumulative. */
const intervalName = (a: StickinessAnswer, n: number) => `${a.cumulative ? "≥ " : ""}${n} ${a.interval}${n === 1 ? "" : "s"}`;

export function StickinessChart({ answer }: KindResultProps<"stickiness">) {
  const c = useChartColors();
  const name = (n: number) => intervalName(answer, n);
  const option = useMemo(
    () => ({
      tooltip: {
        trigger: "axis",
        backgroundColor: c.tooltipBg,
        borderColor: c.border,
        textStyle: { color: c.text },
        valueFormatter: (v: unknown) => escapeHtml(typeof v === "number" ? v.toLocaleString() : "–"),
      },
      grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
      xAxis: {
        type: "category",
        data: answer.results.map((r) => intervalName(answer, r.intervals)),
        axisLabel: { color: c.muted },
        axisLine: { lineStyle: { color: c.grid } },
      },
      yAxis: { type: "value", axisLabel: { color: c.muted }, splitLine: { lineStyle: { color: c.grid } } },
      series: [{ name: "Visitors", type: "bar", color: c.primary, data: answer.results.map((r) => r.visitors) }],
    }),
    [answer, c],
  );
  const label = `Stickiness: ${answer.results.map((r) => `${name(r.intervals)}: ${r.visitors} visitors`).join(", ")}`;
  return <EChart option={option} label={label} style={{ height: 320 }} data-testid="insight-chart" />;
}
