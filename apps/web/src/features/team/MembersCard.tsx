// /team › Members: everyone in the account with their avatar (from the e-mail, SPEC.md §2), name,
// e-mail, role, when they joined and when they were last active. Admins change roles below owner
// and remove members below owner; owners manage everyone (member-rules.ts). Nobody edits their own
// row here: leaving and transferring ownership are in MembershipCard. Removal is confirmed.
import { CAlert, CBadge, CButton, CCard, CCardBody, CFormSelect, CSpinner } from "@coreui/react";
import type { Member, Role } from "@lookout/schema";
import { createColumnHelper } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { ConfirmModal } from "../../components/ConfirmModal";
import { CustomerAvatar } from "../../components/CustomerAvatar";
import { type DataColumn, DataTable, type dataTableFeatures } from "../../components/DataTable";
import { messageOf } from "../../lib/http";
import { formatWhen } from "../me/when";
import { canManage, grantableRoles, ROLE_LABEL, withArticle } from "./member-rules";
import { useChangeRole, useRemoveMember } from "./queries";

const column = createColumnHelper<typeof dataTableFeatures, Member>();

const displayName = (m: Member) => m.name.trim() || m.email;

export function RoleBadge({ role }: { role: Role }) {
  // Body text on the tertiary surface: readable in both themes (coloured badges are not).
  return <CBadge className="fw-normal border text-body bg-body-tertiary">{ROLE_LABEL[role]}</CBadge>;
}

function RoleSelect(props: { member: Member; choices: Role[]; busy: boolean; onChange: (role: Role) => void }) {
  const { member, choices } = props;
  // The member's own role stays listed even where the viewer could not give it.
  const options = choices.includes(member.role) ? choices : [member.role, ...choices];
  return (
    <CFormSelect
      size="sm"
      className="team-role-select"
      aria-label={`Role of ${displayName(member)}`}
      value={member.role}
      disabled={props.busy}
      onChange={(e) => props.onChange(e.target.value as Role)}
    >
      {options.map((r) => (
        <option key={r} value={r}>
          {ROLE_LABEL[r]}
        </option>
      ))}
    </CFormSelect>
  );
}

function RemoveButton({ member, onClick }: { member: Member; onClick: () => void }) {
  return (
    <CButton color="danger" variant="outline" size="sm" aria-label={`Remove ${displayName(member)}`} onClick={onClick}>
      Remove
    </CButton>
  );
}

export function MembersCard(props: { accountId: string; members: Member[]; viewerId: string; viewerRole: Role | null }) {
  const { accountId, members, viewerId, viewerRole } = props;
  const change = useChangeRole(accountId);
  const remove = useRemoveMember(accountId);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [done, setDone] = useState("");
  const resetRemove = remove.reset;

  const columns = useMemo(() => {
    const choices = grantableRoles(viewerRole);
    const askRemove = (m: Member) => {
      resetRemove();
      setRemoving(m);
    };
    const onRole = (m: Member, role: Role) => {
      if (role === m.role) return;
      setDone("");
      change.mutate({ userId: m.user_id, role }, { onSuccess: () => setDone(`${displayName(m)} is now ${withArticle(role)}.`) });
    };
    const cols = [
      column.accessor("email", {
        header: "Member",
        cell: ({ row }) => {
          const m = row.original;
          const named = m.name.trim() !== "";
          return (
            <div className="d-flex align-items-center gap-2 min-w-0">
              <CustomerAvatar email={m.email} />
              <div className="min-w-0 team-member-id">
                <div className="fw-semibold">
                  {named ? m.name : m.email}
                  {m.user_id === viewerId && <span className="text-body-secondary fw-normal"> (you)</span>}
                </div>
                {named && <div className="small text-body-secondary">{m.email}</div>}
              </div>
            </div>
          );
        },
      }),
      column.accessor("role", {
        header: "Role",
        cell: ({ row }) => {
          const m = row.original;
          if (!canManage(viewerRole, m.role, m.user_id === viewerId)) return <RoleBadge role={m.role} />;
          const busy = change.isPending && change.variables?.userId === m.user_id;
          return (
            <>
              <RoleSelect member={m} choices={choices} busy={busy} onChange={(r) => onRole(m, r)} />
              {/* Phones have no room for an actions column: the button sits under the role. */}
              <div className="d-sm-none mt-2">
                <RemoveButton member={m} onClick={() => askRemove(m)} />
              </div>
            </>
          );
        },
      }),
      column.accessor("joined_at", {
        header: "Joined",
        meta: { phoneHidden: true },
        cell: ({ getValue }) => <span className="text-nowrap">{formatWhen(getValue())}</span>,
      }),
      column.accessor("last_active_at", {
        header: "Last active",
        meta: { phoneHidden: true },
        cell: ({ getValue }) => <span className="text-nowrap">{formatWhen(getValue(), "Not yet")}</span>,
      }),
      column.display({
        id: "actions",
        header: () => <span className="visually-hidden">Actions</span>,
        meta: { end: true, phoneHidden: true },
        cell: ({ row }) => {
          const m = row.original;
          if (!canManage(viewerRole, m.role, m.user_id === viewerId)) return null;
          return <RemoveButton member={m} onClick={() => askRemove(m)} />;
        },
      }) as never,
    ];
    return cols as DataColumn<Member>[];
  }, [viewerRole, viewerId, change, resetRemove]);

  return (
    <CCard className="mb-4">
      <CCardBody className="p-3 p-md-4">
        <h2 className="h5 mb-3">
          Members <span className="text-body-secondary fw-normal">({members.length})</span>
        </h2>
        {change.error && (
          <CAlert color="danger" role="alert" dismissible onClose={() => change.reset()}>
            {messageOf(change.error, "The role could not be changed.")}
          </CAlert>
        )}
        <p className="visually-hidden" aria-live="polite">
          {done}
        </p>
        {change.isPending && (
          <p className="small text-body-secondary" role="status">
            <CSpinner size="sm" aria-hidden="true" className="me-2" />
            Saving the role…
          </p>
        )}
        <DataTable columns={columns} rows={members} rowId={(m) => m.user_id} caption="The account’s members" />
      </CCardBody>
      {removing && (
        <ConfirmModal
          title="Remove this member?"
          action="Remove member"
          busy={remove.isPending}
          error={remove.error ? messageOf(remove.error, "The member could not be removed.") : null}
          onClose={() => setRemoving(null)}
          onConfirm={() => remove.mutate(removing.user_id, { onSuccess: () => setRemoving(null) })}
        >
          <p className="mb-0">
            <strong className="text-break">{displayName(removing)}</strong> ({removing.email}) loses access to this account at
            once, including any open dashboards. Their own login and any other accounts they belong to stay as they are.
          </p>
        </ConfirmModal>
      )}
    </CCard>
  );
}
