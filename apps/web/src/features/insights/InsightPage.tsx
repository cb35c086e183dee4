// /product-analytics/insights/:insightId: an insight's editor beside its result, for every kind of
// the registry (kinds/index.ts): the page owns the name, the date range and the global filters, the
// kind's view owns its options and how its answer is drawn. `new` is an unsaved one (`?kind=` picks
// the kind). The spec being edited lives in the URL (`?q=`, JSON), so any state can be shared and
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
  DATE_PRESET_LABELS,
  DATE_PRESETS,
  INSIGHT_KINDS,
  INSIGHT_LIMITS,
  INSIGHT_SHORT_ID_RE,
  type InsightKind,
  type InsightSpec,
  type InsightSpecInput,
  InsightSpecSchema,
} from "@lookout/schema";
import { createElement, Suspense, useMemo, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router-dom";
import { ConfirmModal } from "../../components/ConfirmModal";
import { PageHeader } from "../../components/PageHeader";
import { RequireProperty } from "../../components/RequireProperty";
import { messageOf } from "../../lib/http";
import { useProperties } from "../../state/current-property";
import { KIND_VIEWS } from "./kinds";
import type { KindView } from "./kinds/types";
import { useCreateInsight, useDeleteInsight, useInsight, useInsightResult, useUpdateInsight } from "./queries";

const PRESETS = DATE_PRESETS.filter((p) => p !== "custom");

const isKind = (k: unknown): k is InsightKind => (INSIGHT_KINDS as readonly unknown[]).includes(k);
/** The registry entry for a kind, widened so that the page can hand it any spec of that kind. */
const viewOf = (kind: InsightKind) => KIND_VIEWS[kind] as unknown as KindView<InsightKind>;

/** The spec in `?q=`, when it reads as JSON of a known kind; validity is judged where it is run. */
function specFromUrl(q: string | null): InsightSpecInput | null {
  if (!q) return null;
  try {
    const v = JSON.parse(q) as unknown;
    return typeof v === "object" && v !== null && isKind((v as { kind?: unknown }).kind) ? (v as InsightSpecInput) : null;
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
  saved: { name: string; favourite: boolean; spec: InsightSpec } | null;
}) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const askedKind = params.get("kind");
  const spec: InsightSpecInput =
    specFromUrl(params.get("q")) ?? saved?.spec ?? KIND_VIEWS[isKind(askedKind) ? askedKind : "trends"].defaultSpec;
  const view = viewOf(spec.kind);
  const setSpec = (next: InsightSpecInput) =>
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        out.set("q", JSON.stringify(next));
        return out;
      },
      { replace: true },
    );
  const parsed = useMemo(() => InsightSpecSchema.safeParse(spec), [spec]);
  const result = useInsightResult(propertyId, parsed.success ? parsed.data : null);
  const [name, setName] = useState(saved?.name ?? "");
  const [confirmDelete, setConfirmDelete] = useState(false);
  const create = useCreateInsight(propertyId);
  const update = useUpdateInsight(propertyId, shortId ?? "");
  const remove = useDeleteInsight(propertyId);

  async function save() {
    if (!parsed.success) return;
    const finalName = name.trim() || view.untitled;
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
                    placeholder={view.untitled}
                    onChange={(e) => setName(e.target.value)}
                  />
                </div>
                {shortId === null && (
                  <div className="mb-3">
                    <CFormLabel htmlFor="insight-kind">Kind</CFormLabel>
                    <CFormSelect
                      id="insight-kind"
                      value={spec.kind}
                      aria-describedby="insight-kind-help"
                      onChange={(e) => {
                        const kind = e.target.value as InsightKind;
                        if (kind !== spec.kind) setSpec({ ...viewOf(kind).defaultSpec, period: spec.period });
                      }}
                    >
                      {INSIGHT_KINDS.map((k) => (
                        <option key={k} value={k}>
                          {KIND_VIEWS[k].label}
                        </option>
                      ))}
                    </CFormSelect>
                    <div id="insight-kind-help" className="form-text">
                      {view.description}
                    </div>
                  </div>
                )}
                <CRow className="g-2 mb-2">
                  <CCol xs={12} sm={6} lg={12} xl={6}>
                    <CFormLabel htmlFor="insight-period" className="small mb-0">
                      Date range
                    </CFormLabel>
                    <CFormSelect
                      id="insight-period"
                      size="sm"
                      value={spec.period ?? "last_30_days"}
                      onChange={(e) => setSpec({ ...spec, period: e.target.value as InsightSpec["period"] })}
                    >
                      {PRESETS.map((p) => (
                        <option key={p} value={p}>
                          {DATE_PRESET_LABELS[p]}
                        </option>
                      ))}
                    </CFormSelect>
                  </CCol>
                  <CCol xs={12} sm={6} lg={12} xl={6}>
                    <CFormLabel htmlFor="insight-filters" className="small mb-0">
                      Filters on every event
                    </CFormLabel>
                    <CFormInput
                      id="insight-filters"
                      size="sm"
                      placeholder="country==DE"
                      value={spec.filters ?? ""}
                      maxLength={INSIGHT_LIMITS.maxFilterLength}
                      onChange={(e) => setSpec({ ...spec, filters: e.target.value || undefined })}
                    />
                  </CCol>
                </CRow>
                <Suspense fallback={<CSpinner size="sm" aria-label="Loading the editor" />}>
                  {createElement(view.Editor, { propertyId, spec, setSpec })}
                </Suspense>
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
              <Suspense fallback={<CSpinner size="sm" aria-label="Loading the chart" />}>
                {result.data &&
                  parsed.success &&
                  result.data.kind === parsed.data.kind &&
                  createElement(viewOf(parsed.data.kind).Result, { propertyId, spec: parsed.data, answer: result.data })}
              </Suspense>
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
