// A trends answer drawn as the insight's display asks: line, bar or stacked bar over time (ECharts),
// pie of the totals, one big number per series, or a table. Series and breakdown names are
// tracked strings: ECharts draws them on canvas as text, tooltips escape them, the table and the
// numbers render them as React text. With a comparison, each series' earlier values are drawn in
// the same colour, dashed (lines) or lighter (bars), named "… · previous period"; the number
// display shows the change from the earlier total and the table a row of the earlier values.

import { CTable, CTableBody, CTableDataCell, CTableHead, CTableHeaderCell, CTableRow } from "@coreui/react";
import type { TrendsAnswer, TrendsDisplay, TrendsResult } from "@lookout/schema";
import { BarChart, PieChart } from "echarts/charts";
import { LegendComponent } from "echarts/components";
import { useMemo } from "react";
import { useChartColors } from "../../../../components/charts/chart-colors";
import { EChart } from "../../../../components/charts/EChart";
import { echarts, escapeHtml } from "../../../../components/charts/echarts-core";

echarts.use([BarChart, PieChart, LegendComponent]);

const PALETTE = ["#5856d6", "#2eb85c", "#f9b115", "#e55353", "#39f", "#9da5b1", "#6f42c1", "#20c997", "#fd7e14", "#d63384"];

export function resultLabel(r: TrendsResult): string {
  if (r.breakdown_value === undefined) return r.series;
  const value = r.breakdown_value === "$other" ? "Other" : r.breakdown_value === "" ? "(none)" : r.breakdown_value;
  return `${r.series} · ${value}`;
}

/** What the earlier period is called next to a series. */
export function comparisonLabel(answer: TrendsAnswer): string {
  return answer.comparison?.type === "year_over_year" ? "a year earlier" : "previous period";
}

/** "+12.5%", "−3%", or null when the earlier value was 0 or missing. */
export function changeText(change: number | null): string | null {
  if (change === null) return null;
  const abs = Math.abs(change).toLocaleString(undefined, { maximumFractionDigits: 1 });
  return change > 0 ? `+${abs}%` : change < 0 ? `−${abs}%` : "0%";
}

const fmt = (v: number | null) =>
  v === null ? "–" : Number.isInteger(v) ? v.toLocaleString() : v.toLocaleString(undefined, { maximumFractionDigits: 2 });

export function TrendsChart({ answer, display }: { answer: TrendsAnswer; display: TrendsDisplay }) {
  const c = useChartColors();
  const results = answer.results;
  const previous = comparisonLabel(answer);
  const option = useMemo(() => {
    const tooltip = {
      backgroundColor: c.tooltipBg,
      borderColor: c.border,
      textStyle: { color: c.text },
      valueFormatter: (v: unknown) => escapeHtml(typeof v === "number" ? fmt(v) : "–"),
    };
    const legend = { type: "scroll", bottom: 0, textStyle: { color: c.text } };
    if (display === "pie") {
      return {
        color: PALETTE,
        tooltip: { ...tooltip, trigger: "item" },
        legend,
        series: [
          {
            type: "pie",
            radius: ["35%", "65%"],
            label: { color: c.text },
            data: results.map((r) => ({ name: resultLabel(r), value: r.total ?? 0 })),
          },
        ],
      };
    }
    const dates = results[0]?.data.map((p) => p.date) ?? [];
    const type = display === "line" ? "line" : "bar";
    const current = results.map((r, i) => ({
      name: resultLabel(r),
      type,
      color: PALETTE[i % PALETTE.length],
      ...(display === "stacked_bar" ? { stack: "all" } : {}),
      showSymbol: false,
      data: r.data.map((p) => p.value),
    }));
    const earlier = results.flatMap((r, i) =>
      r.comparison
        ? [
            {
              name: `${resultLabel(r)} · ${previous}`,
              type,
              color: PALETTE[i % PALETTE.length],
              ...(display === "stacked_bar" ? { stack: "previous" } : {}),
              showSymbol: false,
              lineStyle: { type: "dashed", opacity: 0.6 },
              itemStyle: { opacity: type === "bar" ? 0.35 : 0.6 },
              data: r.comparison.data.map((p) => p.value),
            },
          ]
        : [],
    );
    return {
      tooltip: { ...tooltip, trigger: "axis" },
      legend,
      grid: { left: 8, right: 16, top: 16, bottom: 40, containLabel: true },
      xAxis: { type: "category", data: dates, axisLabel: { color: c.muted }, axisLine: { lineStyle: { color: c.grid } } },
      yAxis: { type: "value", axisLabel: { color: c.muted }, splitLine: { lineStyle: { color: c.grid } } },
      series: [...current, ...earlier],
    };
  }, [results, display, c, previous]);

  if (results.length === 0) return <p className="text-body-secondary">No events match in this range.</p>;
  if (display === "number") {
    return (
      <div className="d-flex flex-wrap gap-4">
        {results.map((r) => {
          const change = r.comparison ? changeText(r.comparison.change) : null;
          return (
            <div key={resultLabel(r)} data-testid="trends-number">
              <div className="text-body-secondary small text-break">{resultLabel(r)}</div>
              <div className="fs-2 fw-semibold">{fmt(r.total)}</div>
              {r.comparison && (
                <div className="small" data-testid="trends-change">
                  {change !== null && (
                    <span
                      className={`fw-semibold ${(r.comparison.change ?? 0) > 0 ? "text-success-emphasis" : (r.comparison.change ?? 0) < 0 ? "text-danger-emphasis" : ""}`}
                    >
                      {change}
                    </span>
                  )}
                  {change !== null && " "}
                  <span className="text-body-secondary">
                    vs {fmt(r.comparison.total)} ({previous})
                  </span>
                </div>
              )}
            </div>
          );
        })}
      </div>
    );
  }
  if (display === "table") {
    const dates = results[0]?.data.map((p) => p.date) ?? [];
    return (
      <div className="table-responsive">
        <CTable small hover className="mb-0">
          <caption className="visually-hidden">The insight's values per interval</caption>
          <CTableHead>
            <CTableRow>
              <CTableHeaderCell scope="col">Series</CTableHeaderCell>
              <CTableHeaderCell scope="col">Total</CTableHeaderCell>
              {dates.map((d) => (
                <CTableHeaderCell scope="col" key={d}>
                  {d}
                </CTableHeaderCell>
              ))}
            </CTableRow>
          </CTableHead>
          <CTableBody>
            {results.flatMap((r) => [
              <CTableRow key={resultLabel(r)}>
                <CTableHeaderCell scope="row" className="text-break">
                  {resultLabel(r)}
                </CTableHeaderCell>
                <CTableDataCell>{fmt(r.total)}</CTableDataCell>
                {r.data.map((p) => (
                  <CTableDataCell key={p.date}>{fmt(p.value)}</CTableDataCell>
                ))}
              </CTableRow>,
              ...(r.comparison
                ? [
                    <CTableRow key={`${resultLabel(r)}\u0000previous`} className="text-body-secondary">
                      <CTableHeaderCell scope="row" className="text-break fw-normal">
                        {resultLabel(r)} · {previous}
                      </CTableHeaderCell>
                      <CTableDataCell>{fmt(r.comparison.total)}</CTableDataCell>
                      {dates.map((d, j) => (
                        <CTableDataCell key={d}>{fmt(r.comparison?.data[j]?.value ?? null)}</CTableDataCell>
                      ))}
                    </CTableRow>,
                  ]
                : []),
            ])}
          </CTableBody>
        </CTable>
      </div>
    );
  }
  const label = `Trends chart: ${results
    .map((r) => {
      const base = `${resultLabel(r)} total ${fmt(r.total)}`;
      if (!r.comparison) return base;
      const change = changeText(r.comparison.change);
      return `${base}, ${previous} ${fmt(r.comparison.total)}${change ? ` (${change})` : ""}`;
    })
    .join("; ")}`;
  return <EChart option={option} label={label} style={{ height: 320 }} data-testid="insight-chart" />;
}
