// A retention answer as a cohort grid: one row per cohort (its period and size), one cell per
// period with the visitors in % of the cohort, shaded by that share; a mean row; cells of a period
// still running are marked "*". Each cell is a button listing its visitors (ActorsModal with
// {cohort, period}). The mean curve is drawn above the grid (ECharts), the grid being its text form.
import { CTable, CTableBody, CTableDataCell, CTableHead, CTableHeaderCell, CTableRow } from "@coreui/react";
import { type RetentionCohort, retentionMeans, retentionPercentages } from "@lookout/schema";
import { LineChart } from "echarts/charts";
import { useMemo, useState } from "react";
import { useChartColors } from "../../../../components/charts/chart-colors";
import { EChart } from "../../../../components/charts/EChart";
import { echarts, escapeHtml } from "../../../../components/charts/echarts-core";
import { ActorsModal } from "../../ActorsModal";
import type { KindResultProps } from "../types";

echarts.use([LineChart]);

const pct = (v: number | null | undefined) =>
  v === null || v === undefined ? "–" : `${v.toLocaleString(undefined, { maximumFractionDigits: 1 })}%`;

export function RetentionGrid({ propertyId, spec, answer }: KindResultProps<"retention">) {
  const c = useChartColors();
  const [cell, setCell] = useState<{ cohort: string; period: number; title: string } | null>(null);
  const unit = answer.period_unit;
  const columns = Array.from({ length: answer.periods + 1 }, (_, n) => n);
  const means = useMemo(() => retentionMeans(answer), [answer]);
  const cohorts = answer.results.cohorts;
  const option = useMemo(
    () => ({
      tooltip: {
        trigger: "axis",
        backgroundColor: c.tooltipBg,
        borderColor: c.border,
        textStyle: { color: c.text },
        valueFormatter: (v: unknown) => escapeHtml(typeof v === "number" ? pct(v) : "–"),
      },
      grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
      xAxis: {
        type: "category",
        data: columns.map((n) => `${unit} ${n}`),
        axisLabel: { color: c.muted },
        axisLine: { lineStyle: { color: c.grid } },
      },
      yAxis: {
        type: "value",
        max: 100,
        axisLabel: { color: c.muted, formatter: "{value}%" },
        splitLine: { lineStyle: { color: c.grid } },
      },
      series: [{ name: "Mean retention", type: "line", color: c.primary, data: means }],
    }),
    [means, columns, unit, c],
  );

  if (cohorts.every((x) => x.size === 0))
    return <p className="text-body-secondary">No visitor did the start event in this range.</p>;
  const label = `Mean retention by ${unit}: ${means.map((m, n) => `${unit} ${n} ${pct(m)}`).join(", ")}`;
  return (
    <>
      <EChart option={option} label={label} style={{ height: 200 }} data-testid="insight-chart" />
      <div className="table-responsive mt-2">
        <CTable small bordered className="mb-1 retention-grid" data-testid="retention-grid">
          <caption className="visually-hidden">
            Retention by cohort: visitors of each cohort who came back, per {unit}, in % of the cohort
          </caption>
          <CTableHead>
            <CTableRow>
              <CTableHeaderCell scope="col">Cohort</CTableHeaderCell>
              <CTableHeaderCell scope="col">Visitors</CTableHeaderCell>
              {columns.map((n) => (
                <CTableHeaderCell scope="col" key={n} className="text-nowrap">
                  {unit} {n}
                </CTableHeaderCell>
              ))}
            </CTableRow>
          </CTableHead>
          <CTableBody>
            <CTableRow>
              <CTableHeaderCell scope="row">Mean</CTableHeaderCell>
              <CTableDataCell />
              {means.map((m, n) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a column is its period number.
                <CTableDataCell key={n} className="fw-semibold" data-testid={`retention-mean-${n}`}>
                  {pct(m)}
                </CTableDataCell>
              ))}
            </CTableRow>
            {cohorts.map((row) => (
              <CohortRow
                key={row.date}
                row={row}
                unit={unit}
                columns={columns}
                onOpen={(period, title) => setCell({ cohort: row.date, period, title })}
              />
            ))}
          </CTableBody>
        </CTable>
      </div>
      <p className="small text-body-secondary mb-0">* this {unit} is still running: its count may still grow.</p>
      {cell && (
        <ActorsModal
          propertyId={propertyId}
          spec={spec}
          at={{ cohort: cell.cohort, period: cell.period }}
          title={cell.title}
          onClose={() => setCell(null)}
        />
      )}
    </>
  );
}

function CohortRow(props: {
  row: RetentionCohort;
  unit: string;
  columns: number[];
  onOpen: (period: number, title: string) => void;
}) {
  const { row, unit } = props;
  const pcts = retentionPercentages(row);
  return (
    <CTableRow>
      <CTableHeaderCell scope="row" className="text-nowrap">
        {row.date}
      </CTableHeaderCell>
      <CTableDataCell>{row.size.toLocaleString()}</CTableDataCell>
      {props.columns.map((n) => {
        const v = row.values[n];
        if (v === undefined) return <CTableDataCell key={n} />;
        const share = pcts[n] ?? 0;
        const running = row.incomplete && n === row.values.length - 1;
        const title = `Cohort ${row.date}, ${unit} ${n}: ${v.toLocaleString()} of ${row.size.toLocaleString()} visitors`;
        return (
          <CTableDataCell
            key={n}
            className="p-0"
            style={{ background: `color-mix(in srgb, var(--cui-primary) ${Math.round(share * 0.45)}%, transparent)` }}
          >
            <button
              type="button"
              className="btn btn-link btn-sm w-100 text-body text-decoration-none text-nowrap"
              disabled={v === 0}
              onClick={() => props.onOpen(n, title)}
            >
              <span className="retention-pct">
                {pct(pcts[n])}
                {running ? "*" : ""}
              </span>
              <span className="visually-hidden">
                {" "}
                {title}
                {running ? ", still running" : ""}
              </span>
            </button>
          </CTableDataCell>
        );
      })}
    </CTableRow>
  );
}
