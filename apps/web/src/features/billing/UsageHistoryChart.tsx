// The last billing periods' billable events as bars, with the plan's limit as a dashed line when
// there is one; a period over the limit is drawn in the danger colour, the current one (still
// filling) hatched lighter. Loaded lazily (default export) with its ECharts parts, so /billing's
// first paint and the other screens never carry them.
import { BarChart } from "echarts/charts";
import { MarkLineComponent } from "echarts/components";
import { memo, useMemo } from "react";
import { useChartColors } from "../../components/charts/chart-colors";
import { EChart } from "../../components/charts/EChart";
import { echarts, escapeHtml } from "../../components/charts/echarts-core";
import { formatCount, formatFull } from "../../lib/format";
import type { PeriodBar } from "./history";

echarts.use([BarChart, MarkLineComponent]);

function UsageHistoryChart({ bars, ariaLabel }: { bars: PeriodBar[]; ariaLabel: string }) {
  const c = useChartColors();
  const option = useMemo(() => {
    const danger = getComputedStyle(document.documentElement).getPropertyValue("--cui-danger").trim() || "#e55353";
    const limit = bars.at(-1)?.limit ?? null;
    return {
      animationDuration: 300,
      grid: { left: 8, right: 16, top: 24, bottom: 8, containLabel: true },
      tooltip: {
        trigger: "axis",
        confine: true,
        backgroundColor: c.tooltipBg,
        borderColor: c.border,
        textStyle: { color: c.text, fontSize: 12 },
        axisPointer: { type: "shadow" },
        formatter: (params: unknown) => {
          const first = Array.isArray(params) ? (params[0] as { dataIndex: number }) : null;
          const bar = first ? bars[first.dataIndex] : undefined;
          if (!bar) return "";
          const of = bar.limit === null ? "" : ` of ${escapeHtml(formatFull(bar.limit))}`;
          const note = bar.current ? " (so far)" : "";
          return `${escapeHtml(bar.title)}<br/><strong>${escapeHtml(formatFull(bar.events))}</strong>${of} events${note}`;
        },
      },
      xAxis: {
        type: "category",
        data: bars.map((b) => b.label),
        axisLabel: { color: c.muted },
        axisLine: { lineStyle: { color: c.grid } },
        axisTick: { show: false },
      },
      yAxis: {
        type: "value",
        axisLabel: { color: c.muted, formatter: (v: number) => formatCount(v) },
        splitLine: { lineStyle: { color: c.grid } },
        // The limit line stays on the chart even when every period is far below it.
        max: limit === null ? undefined : (v: { max: number }) => Math.max(v.max, limit) * 1.1,
      },
      series: [
        {
          type: "bar",
          name: "Billable events",
          barMaxWidth: 36,
          data: bars.map((b) => {
            const over = b.limit !== null && b.events > b.limit;
            const color = over ? danger : c.primary;
            return {
              value: b.events,
              itemStyle: b.current
                ? { color, opacity: 0.45, borderColor: color, borderWidth: 1, borderType: "dashed" }
                : { color, borderRadius: [3, 3, 0, 0] },
            };
          }),
          markLine:
            limit === null
              ? undefined
              : {
                  silent: true,
                  symbol: "none",
                  lineStyle: { color: c.muted, type: "dashed" },
                  label: { color: c.muted, formatter: `Limit ${formatCount(limit)}`, position: "insideEndTop" },
                  data: [{ yAxis: limit }],
                },
        },
      ],
    };
  }, [bars, c]);
  return <EChart option={option} label={ariaLabel} className="billing-history-chart" />;
}

export default memo(UsageHistoryChart);
