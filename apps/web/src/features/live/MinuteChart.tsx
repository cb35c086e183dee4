// Arrivals and visitors on the site per minute over the last 30 minutes, built in the browser
// from the socket's visitors (arrivedAt, and when each one left).
import type { EChartsCoreOption } from "echarts/core";
import { useMemo } from "react";
import { useChartColors } from "../../components/charts/chart-colors";
import { EChart } from "../../components/charts/EChart";
import "../../components/charts/echarts-live";
import type { MinuteBucket } from "./live-stats";

const hhmm = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });

export function MinuteChart({ buckets }: { buckets: MinuteBucket[] }) {
  const c = useChartColors();
  const option = useMemo<EChartsCoreOption>(
    () => ({
      animation: false,
      grid: { left: 4, right: 8, top: 32, bottom: 4, containLabel: true },
      legend: { top: 0, left: 0, itemWidth: 12, itemHeight: 8, textStyle: { color: c.muted } },
      tooltip: {
        trigger: "axis",
        backgroundColor: c.tooltipBg,
        borderColor: c.border,
        textStyle: { color: c.text },
      },
      xAxis: {
        type: "category",
        data: buckets.map((b) => hhmm.format(b.start)),
        axisLine: { lineStyle: { color: c.border } },
        axisTick: { show: false },
        axisLabel: { color: c.muted, interval: 9, hideOverlap: true },
      },
      yAxis: {
        type: "value",
        minInterval: 1,
        splitNumber: 3,
        axisLabel: { color: c.muted },
        splitLine: { lineStyle: { color: c.border, type: "dashed" } },
      },
      series: [
        {
          name: "Visitors on the site",
          type: "line",
          data: buckets.map((b) => b.active),
          symbol: "circle",
          symbolSize: 4,
          showSymbol: false,
          lineStyle: { width: 2, color: c.primary },
          itemStyle: { color: c.primary },
          areaStyle: { color: `rgba(${c.primaryRgb}, 0.12)` },
        },
        {
          name: "Arrivals",
          type: "bar",
          data: buckets.map((b) => b.arrivals),
          barMaxWidth: 10,
          itemStyle: { color: c.info, borderRadius: [2, 2, 0, 0] },
        },
      ],
    }),
    [buckets, c],
  );
  const peak = Math.max(0, ...buckets.map((b) => b.active));
  const arrivals = buckets.reduce((n, b) => n + b.arrivals, 0);
  return (
    <EChart
      option={option}
      renderer="svg"
      className="live-minute-chart"
      label={`Last 30 minutes: ${arrivals} arrivals, at most ${peak} visitors on the site at once`}
    />
  );
}
