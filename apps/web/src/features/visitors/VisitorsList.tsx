// The visitors of the current property (Product Analytics › Visitors): search by e-mail, name or
// client id (debounced), sort by last seen, first seen, visits or events, identified or anonymous;
// the columns avatar, name or id, location, last seen, visits and pageviews; each row opens the
// visitor's page. Everything is in the URL (url-state.ts). "Load more" pages by cursor; the CSV is
// the server's, of every match (not only the loaded pages).
import { cilCloudDownload, cilSearch } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import {
  CAlert,
  CButton,
  CCard,
  CCardBody,
  CFormInput,
  CFormLabel,
  CFormSelect,
  CInputGroup,
  CInputGroupText,
  CSpinner,
} from "@coreui/react";
import {
  type CurrentProperty,
  VISITOR_IDENTIFIED,
  type VisitorIdentified,
  type VisitorOrder,
  type VisitorSummary,
} from "@lookout/schema";
import { createColumnHelper } from "@tanstack/react-table";
import { useEffect, useId, useMemo, useState } from "react";
import { Link, useLocation, useSearchParams } from "react-router-dom";
import { CountryFlag } from "../../components/CountryFlag";
import { CustomerAvatar } from "../../components/CustomerAvatar";
import { type DataColumn, DataTable, type dataTableFeatures } from "../../components/DataTable";
import { saveFile } from "../../lib/download";
import { formatFull } from "../../lib/format";
import { messageOf } from "../../lib/http";
import { safeFileName } from "../dashboard/csv";
import { ListSkeleton, PanelError } from "../dashboard/PanelParts";
import { downloadVisitorsCsv, type ListParams } from "./api";
import { formatDateTime, formatRelative, placeLabel, visitorLabel } from "./labels";
import { visitorPath } from "./paths";
import { useVisitorList } from "./queries";
import { readListParams, writeListParams } from "./url-state";
import type { DeletedNotice } from "./VisitorActions";
import "./visitors.css";

const SEARCH_DEBOUNCE_MS = 300;

const ORDER_LABEL: Record<VisitorOrder, string> = {
  last_seen: "Last seen",
  first_seen: "First seen",
  visits: "Most visits",
  events: "Most events",
};
const IDENTIFIED_LABEL: Record<VisitorIdentified, string> = { all: "All", identified: "Identified", anonymous: "Anonymous" };

const column = createColumnHelper<typeof dataTableFeatures, VisitorSummary>();

const COLUMNS = column.columns([
  column.display({
    id: "avatar",
    header: () => <span className="visually-hidden">Avatar</span>,
    cell: ({ row }) => <CustomerAvatar email={row.original.email || null} />,
  }),
  column.display({
    id: "who",
    header: "Name or id",
    cell: ({ row }) => {
      const v = row.original;
      const label = visitorLabel(v);
      return (
        <span className="d-block min-w-0 visitors-who">
          <Link to={visitorPath(v.client_id)} className="fw-semibold text-break visitor-link" data-clientid={v.client_id}>
            {label}
          </Link>
          {v.email && v.email !== label && <span className="d-block small text-body-secondary text-break">{v.email}</span>}
          {!v.identified && <span className="d-block small text-body-secondary">Anonymous</span>}
        </span>
      );
    },
  }),
  column.display({
    id: "location",
    header: "Location",
    meta: { phoneHidden: true },
    cell: ({ row }) => (
      <span className="d-inline-flex align-items-center gap-2">
        <CountryFlag code={row.original.country || undefined} decorative />
        <span className="text-break">{placeLabel(row.original)}</span>
      </span>
    ),
  }),
  column.accessor("last_seen", {
    header: "Last seen",
    cell: ({ getValue }) => (
      <span className="text-nowrap" title={formatDateTime(getValue())}>
        {formatRelative(getValue())}
      </span>
    ),
  }),
  column.accessor("visits", { header: "Visits", meta: { end: true }, cell: ({ getValue }) => formatFull(getValue()) }),
  column.accessor("pageviews", {
    header: "Pageviews",
    meta: { end: true, phoneHidden: true },
    cell: ({ getValue }) => formatFull(getValue()),
  }),
]) as DataColumn<VisitorSummary>[];

/** The search box: typed text reaches the URL (and the server) once typing pauses. */
function SearchBox({ value, onSearch }: { value: string; onSearch: (s: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    // The URL changed from elsewhere (back button): the box follows.
    setShown(value);
    setText(value);
  }
  useEffect(() => {
    if (text === value) return;
    const t = setTimeout(() => onSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, value, onSearch]);
  return (
    <div className="visitors-search">
      <CFormLabel htmlFor={`${id}-q`} className="visually-hidden">
        Search visitors
      </CFormLabel>
      <CInputGroup size="sm">
        <CInputGroupText aria-hidden="true">
          <CIcon icon={cilSearch} size="sm" />
        </CInputGroupText>
        <CFormInput
          id={`${id}-q`}
          type="search"
          placeholder="E-mail, name or client id"
          autoComplete="off"
          value={text}
          maxLength={200}
          onChange={(e) => setText(e.target.value)}
        />
      </CInputGroup>
    </div>
  );
}

function Controls({
  params,
  onChange,
  propertyId,
}: {
  params: ListParams;
  onChange: (p: ListParams) => void;
  propertyId: string;
}) {
  const id = useId();
  const [csv, setCsv] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const onSearch = useMemo(() => (search: string) => onChange({ ...params, search }), [params, onChange]);
  const exportCsv = async () => {
    setCsv({ busy: true, error: null });
    try {
      saveFile(await downloadVisitorsCsv(propertyId, params), `${safeFileName("visitors", propertyId)}.csv`);
      setCsv({ busy: false, error: null });
    } catch (err) {
      setCsv({ busy: false, error: messageOf(err, "The CSV could not be downloaded.") });
    }
  };
  return (
    <>
      <div className="visitors-controls d-flex flex-wrap align-items-center gap-2 mb-3">
        <SearchBox value={params.search} onSearch={onSearch} />
        <div className="d-flex align-items-center gap-2">
          <CFormLabel htmlFor={`${id}-order`} className="small mb-0 text-nowrap">
            Sort by
          </CFormLabel>
          <CFormSelect
            id={`${id}-order`}
            size="sm"
            value={params.order}
            onChange={(e) => onChange({ ...params, order: e.target.value as VisitorOrder })}
          >
            {(Object.keys(ORDER_LABEL) as VisitorOrder[]).map((o) => (
              <option key={o} value={o}>
                {ORDER_LABEL[o]}
              </option>
            ))}
          </CFormSelect>
        </div>
        <div className="btn-group btn-group-sm visitors-identified" role="radiogroup" aria-label="Show visitors">
          {VISITOR_IDENTIFIED.map((k) => (
            <CButton
              key={k}
              type="button"
              role="radio"
              aria-checked={params.identified === k}
              color="primary"
              variant={params.identified === k ? undefined : "outline"}
              onClick={() => onChange({ ...params, identified: k })}
            >
              {IDENTIFIED_LABEL[k]}
            </CButton>
          ))}
        </div>
        <CButton
          color="secondary"
          variant="outline"
          size="sm"
          className="ms-md-auto"
          onClick={() => void exportCsv()}
          disabled={csv.busy}
        >
          {csv.busy ? (
            <CSpinner as="span" size="sm" className="me-1" aria-hidden="true" />
          ) : (
            <CIcon icon={cilCloudDownload} size="sm" className="me-1" aria-hidden="true" />
          )}
          Export CSV
        </CButton>
      </div>
      {csv.error && (
        <CAlert color="danger" className="small py-2" role="alert">
          {csv.error}
        </CAlert>
      )}
    </>
  );
}

export function VisitorsList({ property }: { property: CurrentProperty }) {
  const propertyId = property.unique_id;
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => readListParams(search), [search]);
  const list = useVisitorList(propertyId, params);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.results) ?? [], [list.data]);
  const onChange = useMemo(() => (p: ListParams) => setSearch((s) => writeListParams(s, p), { replace: true }), [setSearch]);
  const deleted = (useLocation().state as Partial<DeletedNotice> | null)?.deletedVisitor;
  const filtered = params.search !== "" || params.identified !== "all";
  return (
    <CCard className="visitors-list">
      <CCardBody>
        {deleted && (
          <CAlert color="success" role="status" className="visitors-deleted">
            Deleted <strong className="text-break">{deleted.label}</strong> and their {formatFull(deleted.events)}{" "}
            {deleted.events === 1 ? "event" : "events"}.
          </CAlert>
        )}
        <Controls params={params} onChange={onChange} propertyId={propertyId} />
        {list.error && !list.data ? (
          <PanelError error={list.error} what="the visitors" onRetry={() => void list.refetch()} />
        ) : !list.data ? (
          <ListSkeleton />
        ) : rows.length === 0 ? (
          <p className="text-body-secondary mb-0 visitors-empty">
            {filtered ? "No visitor matches this search." : "No visitors yet. They appear here after their first visit."}
          </p>
        ) : (
          <div className={list.isPlaceholderData ? "opacity-50" : undefined} aria-busy={list.isPlaceholderData}>
            <DataTable columns={COLUMNS} rows={rows} rowId={(v) => v.client_id} caption="Visitors" />
            {list.error && <PanelError error={list.error} what="more visitors" onRetry={() => void list.fetchNextPage()} />}
            <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mt-3">
              <span className="small text-body-secondary" aria-live="polite" data-testid="visitors-shown">
                {rows.length} {rows.length === 1 ? "visitor" : "visitors"} shown
              </span>
              {list.hasNextPage && (
                <CButton
                  color="secondary"
                  variant="outline"
                  size="sm"
                  onClick={() => void list.fetchNextPage()}
                  disabled={list.isFetchingNextPage}
                >
                  {list.isFetchingNextPage && <CSpinner as="span" size="sm" className="me-2" aria-hidden="true" />}
                  Load more
                </CButton>
              )}
            </div>
          </div>
        )}
      </CCardBody>
    </CCard>
  );
}
