// /billing › invoices (Stripe mode, owners): the account's invoices newest first, each with its
// provider page (only http(s) addresses become links), and the button to the provider's customer
// portal, where the owner changes the card, downloads invoices or cancels.
import { CAlert, CBadge, CButton, CCard, CCardBody, CCardHeader, CSpinner } from "@coreui/react";
import type { Invoice } from "@lookout/schema";
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { type DataColumn, DataTable, type dataTableFeatures } from "../../components/DataTable";
import { messageOf } from "../../lib/http";
import { formatDay, formatMoney } from "./billing-format";
import { goTo } from "./go-to";
import { INVOICE_STATUS_LABEL } from "./labels";
import { usePortal } from "./queries";

const column = createColumnHelper<typeof dataTableFeatures, Invoice>();

const STATUS_TONE: Record<Invoice["status"], string> = {
  paid: "success",
  open: "warning",
  draft: "secondary",
  uncollectible: "danger",
  void: "secondary",
};

const COLUMNS = column.columns([
  column.accessor("created_at", {
    header: "Date",
    cell: ({ getValue }) => <span className="text-nowrap">{formatDay(getValue())}</span>,
  }),
  column.accessor("number", {
    header: "Number",
    cell: ({ getValue }) => <span className="text-break">{getValue() ?? "–"}</span>,
    meta: { phoneHidden: true },
  }),
  column.accessor("amount", {
    header: "Amount",
    cell: ({ row }) => <span className="text-nowrap">{formatMoney(row.original.amount, row.original.currency)}</span>,
  }),
  column.accessor("status", {
    header: "Status",
    cell: ({ getValue }) => {
      const s = getValue();
      const c = STATUS_TONE[s];
      return (
        <CBadge className={`fw-normal border bg-${c}-subtle text-${c}-emphasis border-${c}-subtle`}>
          {INVOICE_STATUS_LABEL[s]}
        </CBadge>
      );
    },
  }),
  column.display({
    id: "open",
    header: () => <span className="visually-hidden">Invoice page</span>,
    cell: ({ row }) => {
      const { url, number, created_at } = row.original;
      if (!url || !/^https?:\/\//i.test(url)) return null;
      return (
        <a href={url} target="_blank" rel="noopener noreferrer" aria-label={`View invoice ${number ?? formatDay(created_at)}`}>
          View
        </a>
      );
    },
    meta: { end: true },
  }),
]) as DataColumn<Invoice>[];

/** The portal button; also used in the plan card's header. */
export function PortalButton({ accountId }: { accountId: string }) {
  const portal = usePortal(accountId);
  const [refused, setRefused] = useState(false);
  const busy = portal.isPending || (portal.isSuccess && !refused);
  return (
    <div className="billing-portal">
      <CButton
        color="primary"
        variant="outline"
        disabled={busy}
        onClick={() => {
          setRefused(false);
          portal.mutate(undefined, {
            onSuccess: ({ url }) => {
              if (!goTo(url)) setRefused(true);
            },
          });
        }}
      >
        {busy && <CSpinner size="sm" className="me-2" aria-hidden="true" />}
        Manage payment method and invoices
      </CButton>
      {(portal.error || refused) && (
        <CAlert color="danger" className="py-2 mt-2 mb-0 small" role="alert">
          {refused
            ? "The payment provider answered an address that cannot be opened."
            : messageOf(portal.error, "The payment portal could not be opened. Try again in a moment.")}
        </CAlert>
      )}
    </div>
  );
}

export function InvoicesCard({ invoices }: { invoices: Invoice[] }) {
  return (
    <CCard className="mb-4 billing-invoices">
      <CCardHeader className="py-2">
        <h2 className="h6 mb-0">Invoices</h2>
      </CCardHeader>
      <CCardBody className="p-3 p-md-4">
        {invoices.length === 0 ? (
          <p className="text-body-secondary small mb-0">No invoices yet. They appear here once a plan is paid for.</p>
        ) : (
          <DataTable columns={COLUMNS} rows={invoices} rowId={(i) => i.id} caption="The account's invoices, newest first" />
        )}
      </CCardBody>
    </CCard>
  );
}
