// A line chart over time: the main series as a filled line, an optional comparison as a dashed
// line, with a tooltip giving each point's full date. Loaded lazily (default export) so the first
// page stays small.
import { memo, useMemo } from "react";
import { type ChartColors, useChartColors } from "./chart-colors";
import { EChart } from "./EChart";
import { echarts, escapeHtml } from "./echarts-core";

export interface ChartSeries {
  name: string;
  values: (number | null)[];
  /** The full date of each point, for the tooltip. */
  dates: string[];
  dashed?: boolean;
}

export interface TimeseriesChartProps {
  /** Short x-axis labels, one per point. */
  labels: string[];
  series: ChartSeries[];
  formatValue: (n: number) => string;
  ariaLabel: string;
  height?: number;
}

function optionFor(p: TimeseriesChartProps, c: ChartColors) {
  return {
    animationDuration: 300,
    grid: { left: 8, right: 16, top: 12, bottom: 8, containLabel: true },
    tooltip: {
      trigger: "axis",
      confine: true,
      backgroundColor: c.tooltipBg,
      borderColor: c.border,
      textStyle: { color: c.text, fontSize: 12 },
      axisPointer: { type: "line", lineStyle: { color: c.muted } },
      formatter: (params: unknown) => {
        const items = Array.isArray(params) ? (params as { seriesIndex: number; dataIndex: number; value: unknown }[]) : [];
        return items
          .map((it) => {
            const s = p.series[it.seriesIndex];
            if (!s) return "";
            const v = typeof it.value === "number" ? p.formatValue(it.value) : "–";
            const swatch = s.dashed ? "chart-swatch chart-swatch-dashed" : "chart-swatch";
            return `<div class="chart-tip"><span class="${swatch}"></span><span class="chart-tip-date">${escapeHtml(
              s.dates[it.dataIndex] ?? "",
            )}</span><strong>${escapeHtml(v)}</strong></div>`;
          })
          .join("");
      },
    },
    xAxis: {
      type: "category",
      data: p.labels,
      boundaryGap: false,
      axisLine: { lineStyle: { color: c.grid } },
      axisTick: { show: false },
      axisLabel: { color: c.muted, hideOverlap: true },
    },
    yAxis: {
      type: "value",
      minInterval: 1,
      splitNumber: 4,
      splitLine: { lineStyle: { color: c.grid } },
      axisLabel: { color: c.muted, formatter: (v: number) => p.formatValue(v) },
    },
    series: p.series.map((s) => ({
      type: "line",
      name: s.name,
      data: s.values,
      showSymbol: s.values.length <= 2,
      symbolSize: 6,
      smooth: false,
      z: s.dashed ? 1 : 2,
      lineStyle: s.dashed ? { color: c.muted, width: 1.5, type: "dashed" } : { color: c.primary, width: 2 },
      itemStyle: { color: s.dashed ? c.muted : c.primary },
      areaStyle: s.dashed
        ? undefined
        : {
            color: new echarts.graphic.LinearGradient(0, 0, 0, 1, [
              { offset: 0, color: `rgba(${c.primaryRgb}, 0.25)` },
              { offset: 1, color: `rgba(${c.primaryRgb}, 0.02)` },
            ]),
          },
      emphasis: { disabled: true },
    })),
  };
}

function TimeseriesChart(props: TimeseriesChartProps) {
  const c = useChartColors();
  const option = useMemo(() => optionFor(props, c), [props, c]);
  return (
    <EChart
      option={option}
      label={props.ariaLabel}
      className="timeseries-chart"
      style={{ height: props.height ?? 280 }}
      data-points={props.labels.length}
    />
  );
}

export default memo(TimeseriesChart);
