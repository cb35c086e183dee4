// A funnel answer: the steps as bars (ECharts) with a table that is also their text alternative —
// per step visitors, conversion from step 1 and from the previous step, drop-off, median and
// average time — where a step's converted and dropped counts open their visitors (ActorsModal,
// each linking to /customers/{clientId}); the breakdown per step-1 value; the time-to-convert
// histogram and the conversion over time. Step and breakdown names are tracked strings: React
// text, ECharts canvas text, escaped tooltips.
import { CButton, CTable, CTableBody, CTableDataCell, CTableHead, CTableHeaderCell, CTableRow } from "@coreui/react";
import type { FunnelActorSelector, FunnelStepResult } from "@lookout/schema";
import { BarChart, LineChart } from "echarts/charts";
import { useMemo, useState } from "react";
import { useChartColors } from "../../../../components/charts/chart-colors";
import { EChart } from "../../../../components/charts/EChart";
import { echarts, escapeHtml } from "../../../../components/charts/echarts-core";
import { ActorsModal } from "../../ActorsModal";
import type { KindResultProps } from "../types";

echarts.use([BarChart, LineChart]);

const pct = (v: number | null) => (v === null ? "–" : `${v.toLocaleString(undefined, { maximumFractionDigits: 1 })}%`);

/** Seconds in the largest unit that keeps a number above 1: "45 s", "3.5 min", "2.1 h", "4 d". */
export function duration(s: number | null): string {
  if (s === null) return "–";
  const f = (n: number, u: string) => `${n.toLocaleString(undefined, { maximumFractionDigits: 1 })} ${u}`;
  if (s < 60) return f(s, "s");
  if (s < 3600) return f(s / 60, "min");
  if (s < 86_400) return f(s / 3600, "h");
  return f(s / 86_400, "d");
}

const valueLabel = (v: string) => (v === "$other" ? "Other" : v === "" ? "(none)" : v);

export function FunnelResult({ propertyId, spec, answer }: KindResultProps<"funnel">) {
  const c = useChartColors();
  const [at, setAt] = useState<{ at: FunnelActorSelector; title: string } | null>(null);
  const { steps, breakdowns, time_to_convert, over_time } = answer.results;
  const { stepsOption, histOption, timeOption } = useMemo(() => {
    const tooltip = { backgroundColor: c.tooltipBg, borderColor: c.border, textStyle: { color: c.text } };
    const axis = { axisLabel: { color: c.muted }, axisLine: { lineStyle: { color: c.grid } } };
    const grid = { left: 8, right: 16, top: 16, bottom: 8, containLabel: true };
    const yAxis = { type: "value", ...axis, splitLine: { lineStyle: { color: c.grid } } };
    return {
      stepsOption: {
        tooltip: { ...tooltip, trigger: "axis", valueFormatter: (v: unknown) => escapeHtml(String(v)) },
        grid,
        xAxis: { type: "category", data: steps.map((s) => s.label), ...axis },
        yAxis,
        series: [{ type: "bar", name: "Visitors", color: "#5856d6", data: steps.map((s) => s.visitors) }],
      },
      histOption: {
        tooltip: { ...tooltip, trigger: "axis" },
        grid,
        xAxis: { type: "category", data: time_to_convert.bins.map((b) => duration(b.from_seconds)), ...axis },
        yAxis,
        series: [{ type: "bar", name: "Visitors", color: "#2eb85c", data: time_to_convert.bins.map((b) => b.visitors) }],
      },
      timeOption: {
        tooltip: {
          ...tooltip,
          trigger: "axis",
          valueFormatter: (v: unknown) => escapeHtml(typeof v === "number" ? pct(v) : "–"),
        },
        grid,
        xAxis: { type: "category", data: over_time.map((p) => p.date), ...axis },
        yAxis: { ...yAxis, max: 100 },
        series: [
          { type: "line", name: "Conversion", color: "#f9b115", showSymbol: false, data: over_time.map((p) => p.conversion) },
        ],
      },
    };
  }, [steps, time_to_convert, over_time, c]);

  const first = steps[0]?.visitors ?? 0;
  if (first === 0) return <p className="text-body-secondary">No visitor entered this funnel in this range.</p>;
  const open = (s: FunnelStepResult, status: FunnelActorSelector["status"], breakdown_value?: string) =>
    setAt({
      at: { step: s.step, status, ...(breakdown_value === undefined ? {} : { breakdown_value }) },
      title: `${status === "converted" ? "Reached" : "Dropped off before"} step ${s.label}${breakdown_value === undefined ? "" : ` · ${valueLabel(breakdown_value)}`}`,
    });
  const last = steps[steps.length - 1];
  return (
    <div className="funnel-result">
      <EChart
        option={stepsOption}
        label={`Funnel: ${steps.map((s) => `${s.label} ${s.visitors} visitors (${pct(s.conversion)})`).join("; ")}`}
        style={{ height: 260 }}
        data-testid="insight-chart"
      />
      <div className="table-responsive mt-2">
        <CTable small hover className="mb-0 funnel-steps">
          <caption className="visually-hidden">The funnel's steps</caption>
          <CTableHead>
            <CTableRow>
              <CTableHeaderCell scope="col">Step</CTableHeaderCell>
              <CTableHeaderCell scope="col">Visitors</CTableHeaderCell>
              <CTableHeaderCell scope="col">Conversion</CTableHeaderCell>
              <CTableHeaderCell scope="col">From previous</CTableHeaderCell>
              <CTableHeaderCell scope="col">Dropped</CTableHeaderCell>
              <CTableHeaderCell scope="col">Median time</CTableHeaderCell>
              <CTableHeaderCell scope="col">Average time</CTableHeaderCell>
            </CTableRow>
          </CTableHead>
          <CTableBody>
            {steps.map((s) => (
              <CTableRow key={s.step} data-step={s.step}>
                <CTableHeaderCell scope="row" className="text-break">
                  {s.label}
                </CTableHeaderCell>
                <CTableDataCell>
                  <CButton
                    color="link"
                    size="sm"
                    className="p-0"
                    onClick={() => open(s, "converted")}
                    aria-label={`${s.visitors} visitors reached step ${s.label}`}
                  >
                    {s.visitors.toLocaleString()}
                  </CButton>
                </CTableDataCell>
                <CTableDataCell>{pct(s.conversion)}</CTableDataCell>
                <CTableDataCell>{pct(s.conversion_from_previous)}</CTableDataCell>
                <CTableDataCell>
                  {s.step === 1 ? (
                    "–"
                  ) : (
                    <CButton
                      color="link"
                      size="sm"
                      className="p-0"
                      onClick={() => open(s, "dropped")}
                      aria-label={`${s.dropped} visitors dropped off before step ${s.label}`}
                    >
                      {s.dropped.toLocaleString()}
                    </CButton>
                  )}
                </CTableDataCell>
                <CTableDataCell>{duration(s.median_seconds)}</CTableDataCell>
                <CTableDataCell>{duration(s.average_seconds)}</CTableDataCell>
              </CTableRow>
            ))}
          </CTableBody>
        </CTable>
      </div>
      {breakdowns && breakdowns.length > 0 && (
        <div className="table-responsive mt-3">
          <h3 className="h6">By step 1's {spec.breakdown}</h3>
          <CTable small hover className="mb-0">
            <caption className="visually-hidden">Visitors per step for each breakdown value</caption>
            <CTableHead>
              <CTableRow>
                <CTableHeaderCell scope="col">Value</CTableHeaderCell>
                {steps.map((s) => (
                  <CTableHeaderCell scope="col" key={s.step} className="text-break">
                    {s.label}
                  </CTableHeaderCell>
                ))}
                <CTableHeaderCell scope="col">Conversion</CTableHeaderCell>
              </CTableRow>
            </CTableHead>
            <CTableBody>
              {breakdowns.map((b) => (
                <CTableRow key={b.breakdown_value}>
                  <CTableHeaderCell scope="row" className="text-break">
                    {valueLabel(b.breakdown_value)}
                  </CTableHeaderCell>
                  {b.steps.map((s) => (
                    <CTableDataCell key={s.step}>
                      <CButton
                        color="link"
                        size="sm"
                        className="p-0"
                        onClick={() => open(s, "converted", b.breakdown_value)}
                        aria-label={`${s.visitors} visitors with ${valueLabel(b.breakdown_value)} reached step ${s.label}`}
                      >
                        {s.visitors.toLocaleString()}
                      </CButton>
                    </CTableDataCell>
                  ))}
                  <CTableDataCell>{pct(b.steps[b.steps.length - 1]?.conversion ?? null)}</CTableDataCell>
                </CTableRow>
              ))}
            </CTableBody>
          </CTable>
        </div>
      )}
      <div className="row g-3 mt-1">
        {time_to_convert.bins.length > 0 && (
          <div className="col-12 col-lg-6">
            <h3 className="h6">Time to convert</h3>
            <p className="small text-body-secondary mb-1">
              Median {duration(time_to_convert.median_seconds)}, average {duration(time_to_convert.average_seconds)} from step 1
              to {last?.label}.
            </p>
            <EChart
              option={histOption}
              label={`Time to convert: ${time_to_convert.bins.map((b) => `${duration(b.from_seconds)}–${duration(b.to_seconds)}: ${b.visitors}`).join("; ")}`}
              style={{ height: 200 }}
            />
          </div>
        )}
        <div className="col-12 col-lg-6">
          <h3 className="h6">Conversion over time</h3>
          <EChart
            option={timeOption}
            label={`Conversion over time: ${over_time.map((p) => `${p.date} ${pct(p.conversion)} of ${p.entered}`).join("; ")}`}
            style={{ height: 200 }}
          />
        </div>
      </div>
      {at && <ActorsModal propertyId={propertyId} spec={spec} at={at.at} title={at.title} onClose={() => setAt(null)} />}
    </div>
  );
}
