// /product-analytics/insights/:insightId: an insight's editor beside its result, for every kind of
// the registry (kinds/index.ts): the page owns the name, the date range and the global filters, the
// kind's view owns its options and how its answer is drawn. `new` is an unsaved one (`?kind=` picks
// the kind). The spec being edited lives in the URL (`?q=`, JSON), so any state can be shared and
// reloaded; a saved insight opens with its own spec when the URL carries none. Save creates or
// changes the insight (name, description, tags, spec), Save as new makes another; the header has
// favourite, duplicate, CSV and PNG exports and Delete (asked first; the list then offers Undo).
// Unsaved changes are warned on leave (useLeaveGuard). Viewers open and run insights, and every
// control that would change one is left out for them (DESIGN.md §7).
// The header's buttons are InsightActions.tsx, the name, description and tags InsightFields.tsx,
// reading and comparing specs insight-spec.ts.
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
import { createElement, Suspense, useMemo, useRef, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router-dom";
import { ConfirmModal } from "../../components/ConfirmModal";
import { PageHeader } from "../../components/PageHeader";
import { RequireProperty } from "../../components/RequireProperty";
import { messageOf } from "../../lib/http";
import { useProperties } from "../../state/current-property";
import { useAccountRole } from "../me/queries";
import { InsightActions } from "./InsightActions";
import { InsightFields, parseTags } from "./InsightFields";
import type { DeletedInsightState } from "./InsightsList";
import { isKind, sameSpec, specFromUrl, withPeriod } from "./insight-spec";
import { KIND_VIEWS } from "./kinds";
import type { KindView } from "./kinds/types";
import {
  useCreateInsight,
  useDeleteInsight,
  useDuplicateInsight,
  useInsight,
  useInsightResult,
  useUpdateInsight,
} from "./queries";
import { useLeaveGuard } from "./useLeaveGuard";

const PRESETS = DATE_PRESETS.filter((p) => p !== "custom");

/** The registry entry for a kind, widened so that the page can hand it any spec of that kind. */
const viewOf = (kind: InsightKind) => KIND_VIEWS[kind] as unknown as KindView<InsightKind>;

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

interface Saved {
  short_id: string;
  name: string;
  description: string;
  tags: string[];
  favourite: boolean;
  spec: InsightSpec;
}

function Editor({ propertyId, shortId, saved }: { propertyId: string; shortId: string | null; saved: Saved | null }) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const canWrite = useAccountRole().can("write");
  const askedKind = params.get("kind");
  const urlSpec = specFromUrl(params.get("q"));
  const spec: InsightSpecInput = urlSpec ?? saved?.spec ?? KIND_VIEWS[isKind(askedKind) ? askedKind : "trends"].defaultSpec;
  const view = viewOf(spec.kind);
  const setSpec = (next: InsightSpecInput) =>
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        out.set("q", JSON.stringify(next));
        return out;
      },
      // Synchronously: the router commits navigations in a transition, so without it a second
      // change made before the next render (a typed event, then its math) would be computed from
      // the spec before the first and undo it.
      { replace: true, flushSync: true },
    );
  const parsed = useMemo(() => InsightSpecSchema.safeParse(spec), [spec]);
  const result = useInsightResult(propertyId, parsed.success ? parsed.data : null);
  const [name, setName] = useState(saved?.name ?? "");
  const [description, setDescription] = useState(saved?.description ?? "");
  const [tags, setTags] = useState((saved?.tags ?? []).join(", "));
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [pngError, setPngError] = useState(false);
  const resultBox = useRef<HTMLDivElement>(null);
  const create = useCreateInsight(propertyId);
  const update = useUpdateInsight(propertyId, shortId ?? "");
  const remove = useDeleteInsight(propertyId);
  const duplicate = useDuplicateInsight(propertyId);

  // Unsaved: a new insight once anything was set; a saved one whose fields or spec differ from it.
  const dirty =
    canWrite &&
    (saved === null
      ? urlSpec !== null || name.trim() !== "" || description.trim() !== "" || tags.trim() !== ""
      : name.trim() !== saved.name ||
        description !== saved.description ||
        parseTags(tags).join(",") !== saved.tags.join(",") ||
        (urlSpec !== null && !sameSpec(parsed.success ? parsed.data : urlSpec, saved.spec)));
  const guard = useLeaveGuard(dirty);

  const body = () => ({
    name: name.trim() || view.untitled,
    description,
    tags: parseTags(tags),
  });
  const open = (id: string) => {
    guard.allowNext();
    navigate(`/product-analytics/insights/${encodeURIComponent(id)}`);
  };

  async function save(asNew: boolean) {
    if (!parsed.success) return;
    if (shortId === null || asNew) {
      const fields = body();
      const created = await create.mutateAsync({
        ...fields,
        name: asNew && shortId !== null && fields.name === saved?.name ? `${fields.name} (copy)` : fields.name,
        spec: parsed.data,
        favourite: false,
      });
      open(created.short_id);
    } else {
      const changed = await update.mutateAsync({ ...body(), spec: parsed.data });
      setName(changed.name);
      setParams(new URLSearchParams(), { replace: true });
    }
  }
  const saveError = create.error ?? update.error;
  const title = saved?.name ?? "New insight";

  return (
    <>
      <PageHeader title={title}>
        <InsightActions
          shortId={shortId}
          saved={saved}
          canWrite={canWrite}
          view={view}
          answer={result.data}
          exportName={name || title}
          resultBox={resultBox}
          duplicating={duplicate.isPending}
          onToggleFavourite={() => saved && update.mutate({ favourite: !saved.favourite })}
          onPngDone={(ok) => setPngError(!ok)}
          onDuplicate={() => shortId !== null && duplicate.mutate(shortId, { onSuccess: (copy) => open(copy.short_id) })}
          onDelete={() => setConfirmDelete(true)}
        />
      </PageHeader>
      {pngError && (
        <CAlert color="warning" role="status" dismissible onClose={() => setPngError(false)}>
          This result has no chart to save as a picture; try the CSV.
        </CAlert>
      )}
      {duplicate.isError && (
        <CAlert color="danger" role="alert">
          {messageOf(duplicate.error, "The insight could not be duplicated.")}
        </CAlert>
      )}
      <CRow>
        <CCol lg={5} xl={4}>
          <CCard className="mb-4">
            <CCardBody>
              <CForm
                onSubmit={(e) => {
                  e.preventDefault();
                  void save(false);
                }}
              >
                <InsightFields
                  canWrite={canWrite}
                  saved={saved}
                  untitled={view.untitled}
                  name={name}
                  setName={setName}
                  description={description}
                  setDescription={setDescription}
                  tags={tags}
                  setTags={setTags}
                />
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
                      onChange={(e) => setSpec(withPeriod(spec, e.target.value as InsightSpec["period"]))}
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
                {canWrite && (
                  <div className="d-flex gap-2 flex-wrap align-items-center">
                    <CButton type="submit" color="primary" disabled={!parsed.success || create.isPending || update.isPending}>
                      {shortId === null ? "Save" : "Save changes"}
                    </CButton>
                    {shortId !== null && (
                      <CButton
                        color="secondary"
                        variant="outline"
                        disabled={!parsed.success || create.isPending}
                        onClick={() => void save(true)}
                      >
                        Save as new
                      </CButton>
                    )}
                    {dirty && <span className="small text-body-secondary insight-unsaved">Unsaved changes</span>}
                  </div>
                )}
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
              <div ref={resultBox} className="insight-result" aria-busy={result.isFetching}>
                <Suspense fallback={<CSpinner size="sm" aria-label="Loading the chart" />}>
                  {result.data &&
                    parsed.success &&
                    result.data.kind === parsed.data.kind &&
                    createElement(viewOf(parsed.data.kind).Result, { propertyId, spec: parsed.data, answer: result.data })}
                </Suspense>
              </div>
            </CCardBody>
          </CCard>
        </CCol>
      </CRow>
      {guard.modal}
      {confirmDelete && shortId !== null && (
        <ConfirmModal
          title="Delete this insight?"
          action="Delete insight"
          busy={remove.isPending}
          error={remove.error ? messageOf(remove.error, "The insight could not be deleted.") : null}
          onClose={() => setConfirmDelete(false)}
          onConfirm={() =>
            remove.mutate(shortId, {
              onSuccess: () => {
                guard.allowNext();
                const state: DeletedInsightState = { deleted: { shortId, name: saved?.name ?? name } };
                navigate("/product-analytics", { state });
              },
            })
          }
        >
          <p className="mb-0">
            <strong>{saved?.name}</strong> will be removed from the list; you can undo it right after. Its events stay.
          </p>
        </ConfirmModal>
      )}
    </>
  );
}
