// A line chart over time: the main series as a filled line, an optional comparison as a dashed
// line, with a tooltip giving each point's full date. Loaded lazily (default export) so the first
// page stays small. With `incompleteLast`, the last point is the bucket still filling (this hour,
// today): the main line's last segment is dashed, the point hollow, and the tooltip says so.
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
  /** The last point is the current, incomplete bucket (the range holds now). */
  incompleteLast?: boolean;
}

/** One drawn ECharts series: a whole series, or the complete part or the incomplete tail of one. */
interface Drawn {
  s: ChartSeries;
  part: "whole" | "complete" | "incomplete";
}

/** The note the tooltip and the legend give the current bucket. */
export const INCOMPLETE_NOTE = "incomplete";

function optionFor(p: TimeseriesChartProps, c: ChartColors) {
  const tail = p.incompleteLast ? p.labels.length - 1 : -1;
  // The comparison stays whole: only the current period has a bucket still filling.
  const drawn: Drawn[] = p.series.flatMap((s): Drawn[] =>
    tail >= 0 && !s.dashed
      ? [
          { s, part: "complete" },
          { s, part: "incomplete" },
        ]
      : [{ s, part: "whole" }],
  );
  const dataOf = ({ s, part }: Drawn) => {
    if (part === "whole") return s.values;
    if (part === "complete") return s.values.map((v, i) => (i < tail ? v : null));
    // The dashed tail joins the last complete point to the current one, drawn hollow.
    return s.values.map((v, i) =>
      i === tail ? { value: v, symbol: "emptyCircle", symbolSize: 7 } : i === tail - 1 ? { value: v, symbol: "none" } : null,
    );
  };
  const area = {
    color: new echarts.graphic.LinearGradient(0, 0, 0, 1, [
      { offset: 0, color: `rgba(${c.primaryRgb}, 0.25)` },
      { offset: 1, color: `rgba(${c.primaryRgb}, 0.02)` },
    ]),
  };
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
            const d = drawn[it.seriesIndex];
            if (!d) return "";
            // A point shows once: the complete part up to the tail, the incomplete part at it.
            if (d.part === "complete" && it.dataIndex >= tail) return "";
            if (d.part === "incomplete" && it.dataIndex !== tail) return "";
            const { s } = d;
            const v = typeof it.value === "number" ? p.formatValue(it.value) : "–";
            const swatch =
              d.part === "incomplete"
                ? "chart-swatch chart-swatch-incomplete"
                : s.dashed
                  ? "chart-swatch chart-swatch-dashed"
                  : "chart-swatch";
            const note = d.part === "incomplete" ? ` <span class="chart-tip-note">(${INCOMPLETE_NOTE})</span>` : "";
            return `<div class="chart-tip"><span class="${swatch}"></span><span class="chart-tip-date">${escapeHtml(
              s.dates[it.dataIndex] ?? "",
            )}${note}</span><strong>${escapeHtml(v)}</strong></div>`;
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
    series: drawn.map((d) => {
      const { s, part } = d;
      const dashed = !!s.dashed;
      return {
        type: "line",
        name: part === "incomplete" ? `${s.name} (${INCOMPLETE_NOTE})` : s.name,
        data: dataOf(d),
        showSymbol: part === "incomplete" || s.values.length <= 2,
        symbolSize: 6,
        smooth: false,
        z: dashed ? 1 : 2,
        lineStyle: dashed
          ? { color: c.muted, width: 1.5, type: "dashed" }
          : { color: c.primary, width: 2, ...(part === "incomplete" ? { type: "dashed" } : {}) },
        itemStyle: { color: dashed ? c.muted : c.primary },
        areaStyle: dashed ? undefined : area,
        emphasis: { disabled: true },
      };
    }),
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
      data-incomplete-point={props.incompleteLast && props.labels.length > 0 ? props.labels.length - 1 : undefined}
    />
  );
}

export default memo(TimeseriesChart);
