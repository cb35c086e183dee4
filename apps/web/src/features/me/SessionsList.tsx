// The user's live sessions: device in plain words, the address it signed in from, when it was
// last seen, "This device" on the session of this browser, and a revoke button (after a
// confirmation) on every other; this one ends with Sign out.
import { CAlert, CBadge, CButton, CSpinner } from "@coreui/react";
import type { UserSession } from "@lookout/schema";
import { createColumnHelper } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { Link } from "react-router-dom";
import { ConfirmModal } from "../../components/ConfirmModal";
import { type DataColumn, DataTable, type dataTableFeatures } from "../../components/DataTable";
import { messageOf } from "../../lib/http";
import { useRevokeSession, useSessions } from "./queries";
import { formatWhen } from "./when";

const column = createColumnHelper<typeof dataTableFeatures, UserSession>();

export function SessionsList() {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const resetRevoke = revoke.reset;
  const [revoking, setRevoking] = useState<UserSession | null>(null);

  const columns = useMemo(
    () =>
      column.columns([
        column.accessor("device", {
          header: "Device",
          cell: ({ row }) => (
            <span className="d-inline-flex flex-wrap align-items-center gap-1">
              <span>{row.original.device}</span>
              {row.original.current && <CBadge color="primary">This device</CBadge>}
            </span>
          ),
        }),
        column.accessor("address", {
          header: "Address",
          meta: { phoneHidden: true },
          cell: ({ getValue }) => <span className="text-break">{getValue() || "Unknown"}</span>,
        }),
        column.accessor("last_seen_at", { header: "Last seen", cell: ({ getValue }) => formatWhen(getValue()) }),
        column.display({
          id: "actions",
          header: () => <span className="visually-hidden">Actions</span>,
          meta: { end: true },
          cell: ({ row }) =>
            row.original.current ? (
              <Link to="/logout" className="btn btn-sm btn-outline-secondary text-nowrap">
                Sign out
              </Link>
            ) : (
              <CButton
                color="danger"
                variant="outline"
                size="sm"
                aria-label={`Revoke the session of ${row.original.device}`}
                onClick={() => {
                  resetRevoke();
                  setRevoking(row.original);
                }}
              >
                Revoke
              </CButton>
            ),
        }),
      ]) as DataColumn<UserSession>[],
    [resetRevoke],
  );

  if (sessions.error) {
    return (
      <CAlert color="danger" role="alert">
        {messageOf(sessions.error, "The sessions could not be loaded.")}
      </CAlert>
    );
  }
  if (!sessions.data) {
    return (
      <div className="text-center py-3" role="status">
        <CSpinner size="sm" aria-hidden="true" /> <span className="visually-hidden">Loading the sessions</span>
      </div>
    );
  }
  return (
    <>
      <DataTable columns={columns} rows={sessions.data} rowId={(s) => s.id} caption="Your active sessions" />
      {revoking && (
        <ConfirmModal
          title="Sign out this session?"
          action="Revoke session"
          busy={revoke.isPending}
          error={revoke.error ? messageOf(revoke.error, "The session could not be revoked.") : null}
          onClose={() => setRevoking(null)}
          onConfirm={() => revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
        >
          <p className="mb-0">
            <strong>{revoking.device}</strong>
            {revoking.address ? ` (${revoking.address})` : ""} will be signed out at once and must sign in again.
          </p>
        </ConfirmModal>
      )}
    </>
  );
}
