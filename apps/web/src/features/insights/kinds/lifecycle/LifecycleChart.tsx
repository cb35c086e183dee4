// A lifecycle answer as stacked bars per interval: new, returning and resurrecting above zero,
// dormant below (ECharts), and the same numbers as a table (the chart's text form).
import { CTable, CTableBody, CTableDataCell, CTableHead, CTableHeaderCell, CTableRow } from "@coreui/react";
import { LIFECYCLE_STATUSES } from "@lookout/schema";
import { BarChart } from "echarts/charts";
import { LegendComponent } from "echarts/components";
import { useMemo } from "react";
import { useChartColors } from "../../../../components/charts/chart-colors";
import { EChart } from "../../../../components/charts/EChart";
import { echarts, escapeHtml } from "../../../../components/charts/echarts-core";
import type { KindResultProps } from "../types";

echarts.use([BarChart, LegendComponent]);

const COLORS = { new: "#2eb85c", returning: "#5856d6", resurrecting: "#f9b115", dormant: "#e55353" } as const;
const LABELS = { new: "New", returning: "Returning", resurrecting: "Resurrecting", dormant: "Dormant" } as const;

export function LifecycleChart({ answer }: KindResultProps<"lifecycle">) {
  const c = useChartColors();
  const points = answer.results;
  const option = useMemo(
    () => ({
      tooltip: {
        trigger: "axis",
        backgroundColor: c.tooltipBg,
        borderColor: c.border,
        textStyle: { color: c.text },
        valueFormatter: (v: unknown) => escapeHtml(typeof v === "number" ? v.toLocaleString() : "–"),
      },
      legend: { bottom: 0, textStyle: { color: c.text } },
      grid: { left: 8, right: 16, top: 16, bottom: 40, containLabel: true },
      xAxis: {
        type: "category",
        data: points.map((p) => p.date),
        axisLabel: { color: c.muted },
        axisLine: { lineStyle: { color: c.grid } },
      },
      yAxis: { type: "value", axisLabel: { color: c.muted }, splitLine: { lineStyle: { color: c.grid } } },
      series: LIFECYCLE_STATUSES.map((s) => ({
        name: LABELS[s],
        type: "bar",
        stack: "all",
        color: COLORS[s],
        data: points.map((p) => p[s]),
      })),
    }),
    [points, c],
  );
  const sum = (s: (typeof LIFECYCLE_STATUSES)[number]) => points.reduce((a, p) => a + p[s], 0);
  const label = `Lifecycle by ${answer.interval}: ${LIFECYCLE_STATUSES.map((s) => `${LABELS[s]} ${sum(s)} in all`).join(", ")}`;
  return (
    <>
      <EChart option={option} label={label} style={{ height: 320 }} data-testid="insight-chart" />
      <div className="table-responsive mt-2">
        <CTable small className="mb-0" data-testid="lifecycle-table">
          <caption className="visually-hidden">Visitors per {answer.interval} by status</caption>
          <CTableHead>
            <CTableRow>
              <CTableHeaderCell scope="col">{answer.interval}</CTableHeaderCell>
              {LIFECYCLE_STATUSES.map((s) => (
                <CTableHeaderCell scope="col" key={s}>
                  {LABELS[s]}
                </CTableHeaderCell>
              ))}
            </CTableRow>
          </CTableHead>
          <CTableBody>
            {points.map((p) => (
              <CTableRow key={p.date}>
                <CTableHeaderCell scope="row" className="text-nowrap">
                  {p.date}
                </CTableHeaderCell>
                {LIFECYCLE_STATUSES.map((s) => (
                  <CTableDataCell key={s}>{p[s].toLocaleString()}</CTableDataCell>
                ))}
              </CTableRow>
            ))}
          </CTableBody>
        </CTable>
      </div>
    </>
  );
}
