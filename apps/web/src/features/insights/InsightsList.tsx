// The current property's saved insights on /product-analytics: tabs All / Mine / Favourites /
// Recently viewed, a search, filters by kind, tag and creator, a sort, all in the URL
// (list-params.ts) and answered by the server; rows with the favourite star (a toggle for editors
// and up), name (a link), description and tags, kind with its icon, creator, last modified and when
// I last opened it. After a delete (InsightPage navigates here with the deleted insight in the
// history state) an alert offers Undo. Names, descriptions and tags are users' text: text only.
import { cilChartLine, cilStar } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import {
  CAlert,
  CBadge,
  CButton,
  CCard,
  CCardBody,
  CCol,
  CFormInput,
  CFormLabel,
  CFormSelect,
  CNav,
  CNavItem,
  CRow,
  CSpinner,
} from "@coreui/react";
import { INSIGHT_KINDS, type Insight, type InsightKind, type InsightListSort, type InsightListTab } from "@lookout/schema";
import { useEffect, useMemo, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { type DataColumn, DataTable } from "../../components/DataTable";
import { messageOf } from "../../lib/http";
import { useAccountRole } from "../me/queries";
import { KIND_VIEWS, kindLabel } from "./kinds";
import type { KindView } from "./kinds/types";
import { type ListState, readListState, withListState } from "./list-params";
import { NewInsightMenu } from "./NewInsightMenu";
import { useInsights, usePatchListedInsight, useRestoreInsight } from "./queries";

const TABS: { id: InsightListTab; label: string }[] = [
  { id: "all", label: "All" },
  { id: "mine", label: "Mine" },
  { id: "favourites", label: "Favourites" },
  { id: "recent", label: "Recently viewed" },
];
const SORTS: { id: InsightListSort; label: string }[] = [
  { id: "updated", label: "Last modified" },
  { id: "viewed", label: "Last viewed by me" },
  { id: "created", label: "Newest" },
  { id: "name", label: "Name" },
];

/** What InsightPage leaves in the history state after a delete. */
export interface DeletedInsightState {
  deleted?: { shortId: string; name: string };
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "–");
const kindIcon = (kind: string) =>
  (KIND_VIEWS as unknown as Record<string, KindView<InsightKind> | undefined>)[kind]?.icon ?? cilChartLine;

export function InsightsList({ propertyId }: { propertyId: string }) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  const list = useInsights(propertyId, state);
  const { can } = useAccountRole();
  const canWrite = can("write");
  const star = usePatchListedInsight(propertyId);
  const set = (change: ListState) => setParams((p) => withListState(p, change), { replace: true });

  // The search box writes the URL once typing pauses, not on every key.
  const [search, setSearch] = useState(state.search ?? "");
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the typed text schedules a write.
  useEffect(() => {
    const t = setTimeout(() => {
      if ((state.search ?? "") !== search.trim()) set({ search: search.trim() });
    }, 250);
    return () => clearTimeout(t);
  }, [search]);

  const columns: DataColumn<Insight>[] = [
    {
      id: "favourite",
      header: () => <span className="visually-hidden">Favourite</span>,
      cell: ({ row }) => {
        const i = row.original;
        if (!canWrite) {
          return i.favourite ? <CIcon icon={cilStar} className="text-warning" title="Favourite" /> : null;
        }
        return (
          <CButton
            size="sm"
            color="link"
            className="p-0 insight-star"
            aria-pressed={i.favourite}
            aria-label={`Favourite: ${i.name}`}
            disabled={star.isPending}
            onClick={() => star.mutate({ shortId: i.short_id, patch: { favourite: !i.favourite } })}
          >
            <CIcon icon={cilStar} className={i.favourite ? "text-warning" : "text-body-secondary"} />
          </CButton>
        );
      },
    },
    {
      id: "name",
      header: "Name",
      cell: ({ row }) => {
        const i = row.original;
        return (
          <div className="insight-name-cell">
            <Link to={`/product-analytics/insights/${encodeURIComponent(i.short_id)}`}>{i.name}</Link>
            {i.description && <div className="small text-body-secondary text-truncate">{i.description}</div>}
            {i.tags.length > 0 && (
              <div className="d-flex flex-wrap gap-1 mt-1">
                {i.tags.map((t) => (
                  // The subtle pair keeps its contrast in both themes (a plain secondary badge fails in dark).
                  <CBadge key={t} className="fw-normal insight-tag bg-secondary-subtle text-secondary-emphasis border">
                    {t}
                  </CBadge>
                ))}
              </div>
            )}
          </div>
        );
      },
    },
    {
      id: "kind",
      header: "Kind",
      cell: ({ row }) => (
        <span className="text-nowrap">
          <CIcon icon={kindIcon(row.original.kind)} className="me-1" aria-hidden="true" />
          {kindLabel(row.original.kind)}
        </span>
      ),
    },
    { id: "creator", header: "Created by", meta: { phoneHidden: true }, cell: ({ row }) => row.original.created_by_name ?? "–" },
    { id: "updated", header: "Last modified", meta: { phoneHidden: true }, cell: ({ row }) => when(row.original.updated_at) },
    {
      id: "viewed",
      header: "Last viewed by me",
      meta: { phoneHidden: true },
      cell: ({ row }) => when(row.original.last_viewed_at),
    },
  ];

  const data = list.data;
  const filtered = Object.keys(state).some((k) => k !== "sort" && k !== "tab");
  const tab = state.tab ?? "all";
  return (
    <CCard className="mb-4">
      <CCardBody>
        <DeletedAlert propertyId={propertyId} />
        <div className="d-flex align-items-center justify-content-between mb-3 gap-2 flex-wrap">
          <h2 className="h5 mb-0">Saved insights</h2>
          {canWrite && <NewInsightMenu />}
        </div>
        <nav aria-label="Which insights" className="mb-3">
          <CNav variant="pills" className="insights-tabs gap-1" role="list">
            {TABS.map((t) => (
              <CNavItem key={t.id}>
                <Link
                  to={`?${withListState(params, { tab: t.id })}`}
                  replace
                  className={`nav-link py-1 px-2${t.id === tab ? " active" : ""}`}
                  aria-current={t.id === tab ? "page" : undefined}
                >
                  {t.label}
                </Link>
              </CNavItem>
            ))}
          </CNav>
        </nav>
        <CRow className="g-2 mb-3 insights-filters">
          <CCol xs={12} md={4}>
            <CFormLabel htmlFor="insights-search" className="small mb-0">
              Search
            </CFormLabel>
            <CFormInput
              id="insights-search"
              type="search"
              size="sm"
              placeholder="Name or description"
              maxLength={200}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </CCol>
          <CCol xs={6} md={2}>
            <CFormLabel htmlFor="insights-kind" className="small mb-0">
              Kind
            </CFormLabel>
            <CFormSelect
              id="insights-kind"
              size="sm"
              value={state.kind ?? ""}
              onChange={(e) => set({ kind: e.target.value as ListState["kind"] })}
            >
              <option value="">Any kind</option>
              {INSIGHT_KINDS.map((k) => (
                <option key={k} value={k}>
                  {KIND_VIEWS[k].label}
                </option>
              ))}
            </CFormSelect>
          </CCol>
          <CCol xs={6} md={2}>
            <CFormLabel htmlFor="insights-tag" className="small mb-0">
              Tag
            </CFormLabel>
            <CFormSelect id="insights-tag" size="sm" value={state.tag ?? ""} onChange={(e) => set({ tag: e.target.value })}>
              <option value="">Any tag</option>
              {[...new Set([...(data?.tags ?? []), ...(state.tag ? [state.tag] : [])])].map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </CFormSelect>
          </CCol>
          <CCol xs={6} md={2}>
            <CFormLabel htmlFor="insights-creator" className="small mb-0">
              Created by
            </CFormLabel>
            <CFormSelect
              id="insights-creator"
              size="sm"
              value={state.creator ?? ""}
              onChange={(e) => set({ creator: e.target.value })}
            >
              <option value="">Anyone</option>
              {(data?.creators ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </CFormSelect>
          </CCol>
          <CCol xs={6} md={2}>
            <CFormLabel htmlFor="insights-sort" className="small mb-0">
              Sort by
            </CFormLabel>
            <CFormSelect
              id="insights-sort"
              size="sm"
              value={state.sort ?? "updated"}
              onChange={(e) => set({ sort: e.target.value as InsightListSort })}
            >
              {SORTS.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </CFormSelect>
          </CCol>
        </CRow>
        {list.isPending && <CSpinner size="sm" aria-label="Loading insights" />}
        {list.isError && (
          <CAlert color="danger" role="alert">
            {messageOf(list.error, "The insights could not be loaded.")}
          </CAlert>
        )}
        {data && data.results.length === 0 && (
          <p className="insights-empty text-body-secondary mb-0">
            {filtered || tab !== "all"
              ? "No saved insight matches."
              : canWrite
                ? "No saved insights yet. Build one with New insight."
                : "No saved insights yet."}
          </p>
        )}
        {data && data.results.length > 0 && (
          <DataTable columns={columns} rows={data.results} rowId={(r) => r.short_id} caption="Saved insights" />
        )}
      </CCardBody>
    </CCard>
  );
}

/** "Deleted …" with Undo, after InsightPage deleted an insight; Undo restores it and opens it again. */
function DeletedAlert({ propertyId }: { propertyId: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const restore = useRestoreInsight(propertyId);
  const deleted = (location.state as DeletedInsightState | null)?.deleted;
  if (!deleted) return null;
  const dismiss = () => navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  return (
    <CAlert color="info" className="d-flex align-items-center gap-2 flex-wrap insight-deleted" role="status">
      <span className="me-auto">
        Deleted <strong>{deleted.name}</strong>.
      </span>
      {restore.isError && <span className="text-danger">{messageOf(restore.error, "It could not be restored.")}</span>}
      <CButton
        size="sm"
        color="primary"
        disabled={restore.isPending}
        onClick={() =>
          restore.mutate(deleted.shortId, {
            onSuccess: (i) => navigate(`/product-analytics/insights/${encodeURIComponent(i.short_id)}`),
          })
        }
      >
        Undo
      </CButton>
      <CButton size="sm" color="secondary" variant="ghost" onClick={dismiss} aria-label="Dismiss">
        ×
      </CButton>
    </CAlert>
  );
}
