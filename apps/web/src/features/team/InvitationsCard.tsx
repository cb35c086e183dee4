// /team › Pending invitations (admins and owners): address, role, who invited, when the link
// expires (an expired one says so). Resend mails a new link valid for another 72 hours (the old
// one stops working); Revoke, confirmed, makes the link say so when opened.
import { CAlert, CBadge, CButton, CSpinner } from "@coreui/react";
import type { Invitation } from "@lookout/schema";
import { createColumnHelper } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { ConfirmModal } from "../../components/ConfirmModal";
import { type DataColumn, DataTable, type dataTableFeatures } from "../../components/DataTable";
import { messageOf } from "../../lib/http";
import { formatWhen } from "../me/when";
import { RoleBadge } from "./MembersCard";
import { useInvitations, useResendInvitation, useRevokeInvitation } from "./queries";

const column = createColumnHelper<typeof dataTableFeatures, Invitation>();

export function InvitationsList({ accountId }: { accountId: string }) {
  const invitations = useInvitations(accountId, true);
  const resend = useResendInvitation(accountId);
  const revoke = useRevokeInvitation(accountId);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [notice, setNotice] = useState("");
  const resetRevoke = revoke.reset;

  const columns = useMemo(() => {
    const cols = [
      column.accessor("email", {
        header: "E-mail",
        cell: ({ row, getValue }) => (
          <>
            <span className="team-member-id fw-semibold">{getValue()}</span>
            {/* Phones show the role here, not in a column of its own. */}
            <div className="d-sm-none mt-1">
              <RoleBadge role={row.original.role} />
            </div>
          </>
        ),
      }),
      column.accessor("role", {
        header: "Role",
        meta: { phoneHidden: true },
        cell: ({ getValue }) => <RoleBadge role={getValue()} />,
      }),
      column.accessor("invited_by", {
        header: "Invited by",
        meta: { phoneHidden: true },
        cell: ({ getValue }) => {
          const by = getValue();
          return by ? (
            <span className="text-break">{by.name.trim() || by.email}</span>
          ) : (
            <span className="text-body-secondary">A former member</span>
          );
        },
      }),
      column.accessor("expires_at", {
        header: "Expires",
        meta: { phoneHidden: true },
        cell: ({ row, getValue }) =>
          row.original.expired ? (
            <CBadge className="fw-normal border text-body bg-body-tertiary">Expired</CBadge>
          ) : (
            <span className="text-nowrap">{formatWhen(getValue())}</span>
          ),
      }),
      column.display({
        id: "actions",
        header: () => <span className="visually-hidden">Actions</span>,
        meta: { end: true },
        cell: ({ row }) => {
          const inv = row.original;
          const busy = resend.isPending && resend.variables === inv.id;
          return (
            <div className="d-inline-flex flex-wrap justify-content-end gap-2">
              <CButton
                color="secondary"
                variant="outline"
                size="sm"
                disabled={busy}
                aria-label={`Resend the invitation to ${inv.email}`}
                onClick={() => {
                  setNotice("");
                  resend.mutate(inv.id, { onSuccess: (i) => setNotice(`A new link was sent to ${i.email}.`) });
                }}
              >
                {busy && <CSpinner as="span" size="sm" className="me-1" aria-hidden="true" />}
                Resend
              </CButton>
              <CButton
                color="danger"
                variant="outline"
                size="sm"
                aria-label={`Revoke the invitation to ${inv.email}`}
                onClick={() => {
                  resetRevoke();
                  setRevoking(inv);
                }}
              >
                Revoke
              </CButton>
            </div>
          );
        },
      }) as never,
    ];
    return cols as DataColumn<Invitation>[];
  }, [resend, resetRevoke]);

  return (
    <section aria-labelledby="team-invitations-title">
      <h2 id="team-invitations-title" className="h5 mb-3">
        Pending invitations
      </h2>
      {resend.error && (
        <CAlert color="danger" role="alert" dismissible onClose={() => resend.reset()}>
          {messageOf(resend.error, "The invitation could not be sent again.")}
        </CAlert>
      )}
      <p className="small text-success-emphasis mb-2" aria-live="polite">
        {notice}
      </p>
      {invitations.error ? (
        <CAlert color="danger" role="alert">
          {messageOf(invitations.error, "The invitations could not be loaded.")}
        </CAlert>
      ) : !invitations.data ? (
        <div className="text-center py-3" role="status">
          <CSpinner size="sm" aria-hidden="true" /> <span className="visually-hidden">Loading the invitations</span>
        </div>
      ) : invitations.data.length === 0 ? (
        <p className="text-body-secondary mb-0">No pending invitations.</p>
      ) : (
        <DataTable columns={columns} rows={invitations.data} rowId={(i) => i.id} caption="Invitations not accepted yet" />
      )}
      {revoking && (
        <ConfirmModal
          title="Revoke this invitation?"
          action="Revoke invitation"
          busy={revoke.isPending}
          error={revoke.error ? messageOf(revoke.error, "The invitation could not be revoked.") : null}
          onClose={() => setRevoking(null)}
          onConfirm={() => revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
        >
          <p className="mb-0">
            The link sent to <strong className="text-break">{revoking.email}</strong> stops working and says it was revoked. You
            can invite them again later.
          </p>
        </ConfirmModal>
      )}
    </section>
  );
}
