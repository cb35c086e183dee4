// /product-analytics/insights/:insightId: a trends insight's editor beside its result. `new` is an
// unsaved one. The spec being edited lives in the URL (`?q=`, JSON), so any state can be shared and
// reloaded; a saved insight opens with its own spec when the URL carries none. Save creates or
// changes the insight; the star toggles favourite; Delete asks first (ConfirmModal).
import { cilStar, cilTrash } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import {
  CAlert,
  CButton,
  CCard,
  CCardBody,
  CCol,
  CForm,
  CFormInput,
  CFormLabel,
  CFormSelect,
  CRow,
  CSpinner,
} from "@coreui/react";
import {
  BASE_DIMENSIONS,
  DATE_PRESET_LABELS,
  DATE_PRESETS,
  INSIGHT_LIMITS,
  INSIGHT_SHORT_ID_RE,
  INTERVALS,
  PROPERTY_MATHS,
  TRENDS_DISPLAYS,
  TRENDS_MATHS,
  type TrendsSeries,
  type TrendsSpec,
  type TrendsSpecInput,
  TrendsSpecSchema,
  seriesLetter,
} from "@lookout/schema";
import { useMemo, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router-dom";
import { ConfirmModal } from "../../components/ConfirmModal";
import { PageHeader } from "../../components/PageHeader";
import { RequireProperty } from "../../components/RequireProperty";
import { messageOf } from "../../lib/http";
import { useProperties } from "../../state/current-property";
import { InsightChart } from "./InsightChart";
import { useCreateInsight, useDeleteInsight, useInsight, useInsightResult, useUpdateInsight } from "./queries";

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
const BREAKDOWNS = BASE_DIMENSIONS.filter((d) => d !== "entry_page" && d !== "exit_page");
const PRESETS = DATE_PRESETS.filter((p) => p !== "custom");

export const DEFAULT_TRENDS: TrendsSpecInput = {
  kind: "trends",
  period: "last_30_days",
  series: [{ event: "pageview", math: "total" }],
  display: "line",
};

/** The spec in `?q=`, when it reads as JSON; validity is judged where it is run. */
function specFromUrl(q: string | null): TrendsSpecInput | null {
  if (!q) return null;
  try {
    const v = JSON.parse(q) as unknown;
    return typeof v === "object" && v !== null && (v as { kind?: unknown }).kind === "trends" ? (v as TrendsSpecInput) : null;
  } catch {
    return null;
  }
}

export default function InsightPage() {
  const { insightId = "new" } = useParams();
  const { current } = useProperties();
  // Without a property the picker shows under the screen's own heading.
  if (!current) {
    return (
      <>
        <PageHeader title="Insight" />
        <RequireProperty>{() => null}</RequireProperty>
      </>
    );
  }
  return (
    <RequireProperty>
      {(property) => (
        <InsightEditor key={insightId} propertyId={property.unique_id} shortId={insightId === "new" ? null : insightId} />
      )}
    </RequireProperty>
  );
}

function InsightEditor({ propertyId, shortId }: { propertyId: string; shortId: string | null }) {
  // A link that cannot name an insight (not 8 letters and digits) is not asked for.
  const wellFormed = shortId === null || INSIGHT_SHORT_ID_RE.test(shortId);
  const saved = useInsight(wellFormed ? shortId : null);
  if (!wellFormed) {
    return (
      <>
        <PageHeader title="Insight" />
        <CAlert color="warning" role="alert">
          No insight has this address. <Link to="/product-analytics">See the saved insights</Link>.
        </CAlert>
      </>
    );
  }
  if (shortId !== null && saved.isPending) {
    return (
      <>
        <PageHeader title="Insight" />
        <CSpinner aria-label="Loading the insight" />
      </>
    );
  }
  if (shortId !== null && saved.isError) {
    return (
      <>
        <PageHeader title="Insight" />
        <CAlert color="danger" role="alert">
          {messageOf(saved.error, "This insight could not be loaded.")}
        </CAlert>
      </>
    );
  }
  return <Editor propertyId={propertyId} shortId={shortId} saved={saved.data ?? null} />;
}

function Editor({
  propertyId,
  shortId,
  saved,
}: {
  propertyId: string;
  shortId: string | null;
  saved: { name: string; favourite: boolean; spec: TrendsSpec } | null;
}) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const spec: TrendsSpecInput = specFromUrl(params.get("q")) ?? saved?.spec ?? DEFAULT_TRENDS;
  const setSpec = (next: TrendsSpecInput) =>
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        out.set("q", JSON.stringify(next));
        return out;
      },
      { replace: true },
    );
  const parsed = useMemo(() => TrendsSpecSchema.safeParse(spec), [spec]);
  const result = useInsightResult(propertyId, parsed.success ? parsed.data : null);
  const [name, setName] = useState(saved?.name ?? "");
  const [confirmDelete, setConfirmDelete] = useState(false);
  const create = useCreateInsight(propertyId);
  const update = useUpdateInsight(propertyId, shortId ?? "");
  const remove = useDeleteInsight(propertyId);
  const series = spec.series;
  const setSeries = (i: number, change: Partial<TrendsSeries>) =>
    setSpec({ ...spec, series: series.map((s, j) => (j === i ? { ...s, ...change } : s)) });

  async function save() {
    if (!parsed.success) return;
    const finalName = name.trim() || "Untitled trend";
    if (shortId === null) {
      const created = await create.mutateAsync({
        name: finalName,
        description: "",
        spec: parsed.data,
        favourite: false,
        tags: [],
      });
      navigate(`/product-analytics/insights/${encodeURIComponent(created.short_id)}`);
    } else {
      await update.mutateAsync({ name: finalName, spec: parsed.data });
      setParams(new URLSearchParams(), { replace: true });
    }
  }
  const saveError = create.error ?? update.error;

  return (
    <>
      <PageHeader title={saved?.name ?? "New insight"}>
        <div className="d-flex gap-2 flex-wrap">
          {shortId !== null && saved && (
            <CButton
              color="secondary"
              variant="outline"
              aria-pressed={saved.favourite}
              onClick={() => update.mutate({ favourite: !saved.favourite })}
            >
              <CIcon icon={cilStar} className={saved.favourite ? "text-warning me-1" : "me-1"} />
              {saved.favourite ? "Favourite" : "Add to favourites"}
            </CButton>
          )}
          {shortId !== null && (
            <CButton color="danger" variant="outline" onClick={() => setConfirmDelete(true)}>
              <CIcon icon={cilTrash} className="me-1" />
              Delete
            </CButton>
          )}
        </div>
      </PageHeader>
      <CRow>
        <CCol lg={5} xl={4}>
          <CCard className="mb-4">
            <CCardBody>
              <CForm
                onSubmit={(e) => {
                  e.preventDefault();
                  void save();
                }}
              >
                <div className="mb-3">
                  <CFormLabel htmlFor="insight-name">Name</CFormLabel>
                  <CFormInput
                    id="insight-name"
                    value={name}
                    maxLength={INSIGHT_LIMITS.maxNameLength}
                    placeholder="Untitled trend"
                    onChange={(e) => setName(e.target.value)}
                  />
                </div>
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
                    <CFormLabel htmlFor="insight-period" className="small mb-0">
                      Date range
                    </CFormLabel>
                    <CFormSelect
                      id="insight-period"
                      size="sm"
                      value={spec.period ?? "last_30_days"}
                      onChange={(e) => setSpec({ ...spec, period: e.target.value as TrendsSpec["period"] })}
                    >
                      {PRESETS.map((p) => (
                        <option key={p} value={p}>
                          {DATE_PRESET_LABELS[p]}
                        </option>
                      ))}
                    </CFormSelect>
                  </CCol>
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
                </CRow>
                {!parsed.success && (
                  <CAlert color="warning" className="py-2 small" role="status">
                    {parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}
                  </CAlert>
                )}
                {saveError && (
                  <CAlert color="danger" className="py-2 small" role="alert">
                    {messageOf(saveError, "The insight could not be saved.")}
                  </CAlert>
                )}
                <CButton type="submit" color="primary" disabled={!parsed.success || create.isPending || update.isPending}>
                  {shortId === null ? "Save" : "Save changes"}
                </CButton>
              </CForm>
            </CCardBody>
          </CCard>
        </CCol>
        <CCol lg={7} xl={8}>
          <CCard className="mb-4">
            <CCardBody>
              <h2 className="h6">Result</h2>
              {result.isFetching && !result.data && <CSpinner size="sm" aria-label="Running the insight" />}
              {result.isError && (
                <CAlert color="danger" role="alert">
                  {messageOf(result.error, "This insight could not be run.")}
                </CAlert>
              )}
              {result.data && parsed.success && <InsightChart answer={result.data} display={parsed.data.display} />}
            </CCardBody>
          </CCard>
        </CCol>
      </CRow>
      {confirmDelete && shortId !== null && (
        <ConfirmModal
          title="Delete this insight?"
          action="Delete insight"
          busy={remove.isPending}
          error={remove.error ? messageOf(remove.error, "The insight could not be deleted.") : null}
          onClose={() => setConfirmDelete(false)}
          onConfirm={() =>
            remove.mutate(shortId, {
              onSuccess: () => navigate("/product-analytics"),
            })
          }
        >
          <p className="mb-0">
            <strong>{saved?.name}</strong> will be removed from the list. Its events stay.
          </p>
        </ConfirmModal>
      )}
    </>
  );
}
