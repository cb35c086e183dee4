// The current property's saved insights on /product-analytics: name (a link to the insight), kind,
// favourite, last change, and a New insight button. Names are tracked-free user text, shown as
// text only. A component of its own so that the page around it can gain tabs (visitors).
import { cilPlus, cilStar } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CAlert, CCard, CCardBody, CSpinner } from "@coreui/react";
import type { Insight } from "@lookout/schema";
import { Link } from "react-router-dom";
import { type DataColumn, DataTable } from "../../components/DataTable";
import { messageOf } from "../../lib/http";
import { kindLabel } from "./kinds";
import { useInsights } from "./queries";

const columns: DataColumn<Insight>[] = [
  {
    id: "name",
    header: "Name",
    cell: ({ row }) => (
      <>
        {row.original.favourite && <CIcon icon={cilStar} className="me-1 text-warning" title="Favourite" />}
        <Link to={`/product-analytics/insights/${encodeURIComponent(row.original.short_id)}`}>{row.original.name}</Link>
      </>
    ),
  },
  { id: "kind", header: "Kind", cell: ({ row }) => kindLabel(row.original.kind) },
  {
    id: "updated",
    header: "Last modified",
    meta: { phoneHidden: true },
    cell: ({ row }) => new Date(row.original.updated_at).toLocaleString(),
  },
];

export function InsightsList({ propertyId }: { propertyId: string }) {
  const list = useInsights(propertyId);
  return (
    <CCard className="mb-4">
      <CCardBody>
        <div className="d-flex align-items-center justify-content-between mb-3 gap-2 flex-wrap">
          <h2 className="h5 mb-0">Saved insights</h2>
          <Link to="/product-analytics/insights/new" className="btn btn-primary btn-sm">
            <CIcon icon={cilPlus} className="me-1" />
            New insight
          </Link>
        </div>
        {list.isPending && <CSpinner size="sm" aria-label="Loading insights" />}
        {list.isError && (
          <CAlert color="danger" role="alert">
            {messageOf(list.error, "The insights could not be loaded.")}
          </CAlert>
        )}
        {list.data && list.data.length === 0 && (
          <p className="insights-empty text-body-secondary mb-0">
            No saved insights yet. Build a trend of any event with <strong>New insight</strong>.
          </p>
        )}
        {list.data && list.data.length > 0 && (
          <DataTable columns={columns} rows={list.data} rowId={(r) => r.short_id} caption="Saved insights" />
        )}
      </CCardBody>
    </CCard>
  );
}
