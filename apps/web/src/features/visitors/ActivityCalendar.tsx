// The calendar of a visitor's active days over the last 12 months (an ECharts heatmap on a
// calendar), shaded in four steps by the day's events; the tooltip names the day and its count.
// Loaded lazily (default export): the chart code is only fetched by a visitor page.
import { memo, useMemo } from "react";
import { useChartColors } from "../../components/charts/chart-colors";
import { EChart } from "../../components/charts/EChart";
import { escapeHtml } from "../../components/charts/echarts-core";
import "./echarts-calendar";
import { type CalendarDay, stepThresholds } from "./calendar";
import { formatDay } from "./labels";

function ActivityCalendar({ days, range, label }: { days: CalendarDay[]; range: [string, string]; label: string }) {
  const c = useChartColors();
  const option = useMemo(() => {
    const [t2, t3, t4] = stepThresholds(days);
    const rgb = c.primaryRgb;
    return {
      animation: false,
      tooltip: {
        confine: true,
        backgroundColor: c.tooltipBg,
        borderColor: c.border,
        textStyle: { color: c.text, fontSize: 12 },
        formatter: (p: { value?: [string, number] }) => {
          const [date = "", n = 0] = p.value ?? [];
          return `${escapeHtml(formatDay(date))}: <strong>${n}</strong> ${n === 1 ? "event" : "events"}`;
        },
      },
      visualMap: {
        type: "piecewise",
        show: false,
        dimension: 1,
        pieces: [
          { min: t4, color: `rgba(${rgb}, 1)` },
          { min: t3, max: t4 - 0.5, color: `rgba(${rgb}, 0.75)` },
          { min: t2, max: t3 - 0.5, color: `rgba(${rgb}, 0.5)` },
          { min: 1, max: t2 - 0.5, color: `rgba(${rgb}, 0.28)` },
        ],
        outOfRange: { color: "transparent" },
      },
      calendar: {
        range,
        top: 22,
        left: 28,
        right: 4,
        bottom: 4,
        cellSize: ["auto", "auto"],
        splitLine: { show: false },
        itemStyle: { color: c.land, borderColor: c.surface, borderWidth: 2 },
        dayLabel: { firstDay: 1, nameMap: ["S", "M", "T", "W", "T", "F", "S"], color: c.muted, fontSize: 10 },
        monthLabel: { color: c.muted, fontSize: 11 },
        yearLabel: { show: false },
      },
      series: [
        {
          type: "heatmap",
          coordinateSystem: "calendar",
          data: days.filter((d) => d.date >= range[0] && d.date <= range[1] && d.events > 0).map((d) => [d.date, d.events]),
          itemStyle: { borderColor: c.surface, borderWidth: 2 },
          emphasis: { disabled: true },
        },
      ],
    };
  }, [days, range, c]);
  return <EChart option={option} label={label} className="activity-calendar" />;
}

export default memo(ActivityCalendar);
