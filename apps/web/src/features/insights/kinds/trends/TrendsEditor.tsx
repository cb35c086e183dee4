// The trends options of the insight editor: 1–10 series (event, math, numeric prop, own filters),
// interval, breakdown, display, the formula over the series letters, and the comparison with an
// earlier period (none, the previous period, or the same dates a year earlier; all_time has none).
import { CButton, CCol, CFormCheck, CFormInput, CFormLabel, CFormSelect, CRow } from "@coreui/react";
import {
  BASE_DIMENSIONS,
  INSIGHT_LIMITS,
  INTERVALS,
  PROPERTY_MATHS,
  seriesLetter,
  TRENDS_DISPLAYS,
  TRENDS_MATHS,
  type TrendsSeries,
  type TrendsSpec,
} from "@lookout/schema";
import type { KindEditorProps } from "../types";

const MATH_LABELS: Record<(typeof TRENDS_MATHS)[number], string> = {
  total: "Total count",
  unique_visitors: "Unique visitors",
  avg_per_visitor: "Average per visitor",
  sum: "Sum of a prop",
  avg: "Average of a prop",
  min: "Minimum of a prop",
  max: "Maximum of a prop",
  median: "Median of a prop",
  revenue: "Revenue",
};

const DISPLAY_LABELS: Record<(typeof TRENDS_DISPLAYS)[number], string> = {
  line: "Line",
  bar: "Bar",
  stacked_bar: "Stacked bar",
  number: "Number",
  table: "Table",
  pie: "Pie",
};
const COMPARE_OPTIONS: { value: TrendsSpec["comparison"]; id: string; label: string }[] = [
  { value: undefined, id: "insight-compare-none", label: "No comparison" },
  { value: "previous_period", id: "insight-compare-previous", label: "Compare to previous period" },
  { value: "year_over_year", id: "insight-compare-year", label: "Compare to the same period a year earlier" },
];
const BREAKDOWNS = BASE_DIMENSIONS.filter((d) => d !== "entry_page" && d !== "exit_page");

export function TrendsEditor({ spec, setSpec }: KindEditorProps<"trends">) {
  const series = spec.series;
  const setSeries = (i: number, change: Partial<TrendsSeries>) =>
    setSpec({ ...spec, series: series.map((s, j) => (j === i ? { ...s, ...change } : s)) });
  return (
    <>
      <h2 className="h6">Series</h2>
      {series.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a series is its position (its letter).
        <fieldset key={i} className="border rounded p-2 mb-2">
          <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-0">Series {seriesLetter(i)}</legend>
          <CFormLabel htmlFor={`series-${i}-event`} className="small mb-0">
            Event
          </CFormLabel>
          <CFormInput
            id={`series-${i}-event`}
            size="sm"
            list="insight-events"
            value={s.event}
            onChange={(e) => setSeries(i, { event: e.target.value })}
          />
          <CFormLabel htmlFor={`series-${i}-math`} className="small mb-0 mt-1">
            Math
          </CFormLabel>
          <CFormSelect
            id={`series-${i}-math`}
            size="sm"
            value={s.math ?? "total"}
            onChange={(e) => setSeries(i, { math: e.target.value as TrendsSeries["math"] })}
          >
            {TRENDS_MATHS.map((m) => (
              <option key={m} value={m}>
                {MATH_LABELS[m]}
              </option>
            ))}
          </CFormSelect>
          {PROPERTY_MATHS.includes(s.math ?? "total") && (
            <>
              <CFormLabel htmlFor={`series-${i}-prop`} className="small mb-0 mt-1">
                Numeric prop
              </CFormLabel>
              <CFormInput
                id={`series-${i}-prop`}
                size="sm"
                value={s.math_property ?? ""}
                onChange={(e) => setSeries(i, { math_property: e.target.value })}
              />
            </>
          )}
          <CFormLabel htmlFor={`series-${i}-filters`} className="small mb-0 mt-1">
            Filters (e.g. page==/pricing;country==DE)
          </CFormLabel>
          <CFormInput
            id={`series-${i}-filters`}
            size="sm"
            value={s.filters ?? ""}
            onChange={(e) => setSeries(i, { filters: e.target.value || undefined })}
          />
          {series.length > 1 && (
            <CButton
              color="link"
              size="sm"
              className="px-0"
              onClick={() => setSpec({ ...spec, series: series.filter((_, j) => j !== i) })}
            >
              Remove series {seriesLetter(i)}
            </CButton>
          )}
        </fieldset>
      ))}
      <datalist id="insight-events">
        <option value="pageview" />
      </datalist>
      {series.length < INSIGHT_LIMITS.maxSeries && (
        <CButton
          color="secondary"
          variant="outline"
          size="sm"
          className="mb-3"
          onClick={() => setSpec({ ...spec, series: [...series, { event: "pageview", math: "total" }] })}
        >
          Add series
        </CButton>
      )}
      <CRow className="g-2 mb-2">
        <CCol xs={6}>
          <CFormLabel htmlFor="insight-interval" className="small mb-0">
            Interval
          </CFormLabel>
          <CFormSelect
            id="insight-interval"
            size="sm"
            value={spec.interval ?? ""}
            onChange={(e) => setSpec({ ...spec, interval: (e.target.value || undefined) as TrendsSpec["interval"] })}
          >
            <option value="">Automatic</option>
            {INTERVALS.map((i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </CFormSelect>
        </CCol>
        <CCol xs={6}>
          <CFormLabel htmlFor="insight-breakdown" className="small mb-0">
            Breakdown
          </CFormLabel>
          <CFormInput
            id="insight-breakdown"
            size="sm"
            list="insight-dimensions"
            placeholder="none, country, prop:plan…"
            value={spec.breakdown ?? ""}
            onChange={(e) => setSpec({ ...spec, breakdown: (e.target.value || undefined) as TrendsSpec["breakdown"] })}
          />
          <datalist id="insight-dimensions">
            {BREAKDOWNS.map((d) => (
              <option key={d} value={d} />
            ))}
          </datalist>
        </CCol>
        <CCol xs={6}>
          <CFormLabel htmlFor="insight-display" className="small mb-0">
            Display
          </CFormLabel>
          <CFormSelect
            id="insight-display"
            size="sm"
            value={spec.display ?? "line"}
            onChange={(e) => setSpec({ ...spec, display: e.target.value as TrendsSpec["display"] })}
          >
            {TRENDS_DISPLAYS.map((d) => (
              <option key={d} value={d}>
                {DISPLAY_LABELS[d]}
              </option>
            ))}
          </CFormSelect>
        </CCol>
        <CCol xs={12}>
          <CFormLabel htmlFor="insight-formula" className="small mb-0">
            Formula over the series (e.g. B/A*100)
          </CFormLabel>
          <CFormInput
            id="insight-formula"
            size="sm"
            value={spec.formula ?? ""}
            maxLength={INSIGHT_LIMITS.maxFormulaLength}
            onChange={(e) => setSpec({ ...spec, formula: e.target.value || undefined })}
          />
        </CCol>
        <CCol xs={12}>
          <fieldset aria-describedby={spec.period === "all_time" ? "insight-compare-help" : undefined}>
            <legend className="small mb-0 fs-6">Comparison</legend>
            {COMPARE_OPTIONS.map((o) => (
              <CFormCheck
                key={o.id}
                type="radio"
                name="insight-compare"
                id={o.id}
                label={o.label}
                className="small"
                checked={(spec.comparison ?? undefined) === o.value}
                disabled={o.value !== undefined && spec.period === "all_time"}
                onChange={() => setSpec({ ...spec, comparison: o.value })}
              />
            ))}
            {spec.period === "all_time" && (
              <div id="insight-compare-help" className="small text-body-secondary">
                All time has no earlier period to compare with.
              </div>
            )}
          </fieldset>
        </CCol>
      </CRow>
    </>
  );
}
