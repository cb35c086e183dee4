// /team › Your membership: leave the account (confirmed; then another of the user's accounts
// opens, or they are signed out when none is left), and for owners, hand the account to another
// member (typed confirmation: that member becomes an owner, the caller an admin). The last owner
// cannot leave: an account always keeps an owner (DESIGN.md §7).
import { CAlert, CButton, CCard, CCardBody, CFormLabel, CFormSelect } from "@coreui/react";
import type { Member, Role } from "@lookout/schema";
import { useId, useState } from "react";
import { useNavigate } from "react-router-dom";
import { ConfirmModal } from "../../components/ConfirmModal";
import { TypedConfirmModal } from "../../components/TypedConfirmModal";
import { messageOf } from "../../lib/http";
import { useSwitchAccount } from "../accounts/use-switch-account";
import { useMe } from "../me/queries";
import { canLeave, ownerCount } from "./member-rules";
import { useLeaveAccount, useTransferOwnership } from "./queries";

function TransferOwnership(props: { accountId: string; candidates: Member[]; onDone: (message: string) => void }) {
  const { accountId, candidates, onDone } = props;
  const id = useId();
  const transfer = useTransferOwnership(accountId);
  const [chosen, setChosen] = useState("");
  const [confirming, setConfirming] = useState(false);
  const target = candidates.find((m) => m.user_id === chosen);
  if (candidates.length === 0) {
    return <p className="text-body-secondary small mb-0">Invite someone first: ownership goes to another member.</p>;
  }
  return (
    <>
      <form
        className="d-flex flex-wrap align-items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (target) {
            transfer.reset();
            setConfirming(true);
          }
        }}
      >
        <div className="team-transfer-select">
          <CFormLabel htmlFor={`${id}-member`}>New owner</CFormLabel>
          <CFormSelect id={`${id}-member`} value={chosen} onChange={(e) => setChosen(e.target.value)}>
            <option value="">Choose a member</option>
            {candidates.map((m) => (
              <option key={m.user_id} value={m.user_id}>
                {m.name.trim() ? `${m.name} (${m.email})` : m.email}
              </option>
            ))}
          </CFormSelect>
        </div>
        <CButton type="submit" color="danger" variant="outline" disabled={!target}>
          Transfer ownership
        </CButton>
      </form>
      {confirming && target && (
        <TypedConfirmModal
          title="Transfer ownership?"
          expected={target.email}
          action="Transfer ownership"
          busy={transfer.isPending}
          error={transfer.error ? messageOf(transfer.error, "The ownership could not be transferred.") : null}
          onClose={() => setConfirming(false)}
          onConfirm={() => {
            // mutateAsync, not mutate's callbacks: those do not run once this section unmounts,
            // which it does as soon as the refreshed role (now admin) arrives.
            transfer
              .mutateAsync(target.user_id)
              .then(() => {
                setConfirming(false);
                setChosen("");
                // Said by the card: this section goes away with the caller's owner role.
                onDone(`${target.email} is now an owner, and you are an admin.`);
              })
              .catch(() => {
                // Shown in the modal from the mutation's error.
              });
          }}
        >
          <p className="mb-0">
            <strong className="text-break">{target.email}</strong> becomes an owner of this account: billing, deleting the account
            and making owners. You become an admin and can no longer undo this yourself.
          </p>
        </TypedConfirmModal>
      )}
    </>
  );
}

export function MembershipCard(props: {
  accountId: string;
  accountName: string;
  members: Member[];
  viewerId: string;
  viewerRole: Role | null;
}) {
  const { accountId, accountName, members, viewerId, viewerRole } = props;
  const leave = useLeaveAccount(accountId);
  const me = useMe();
  const switcher = useSwitchAccount();
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const [notice, setNotice] = useState("");
  const owners = ownerCount(members);
  const mayLeave = canLeave(viewerRole, owners);

  const confirmLeave = () =>
    leave.mutate(undefined, {
      onSuccess: async () => {
        const { data } = await me.refetch();
        const next = data?.accounts.find((a) => a.id !== accountId);
        setLeaving(false);
        // No account left to open: the session has nothing to show, so it ends.
        if (next) void switcher.switchTo(next.id);
        else navigate("/logout");
      },
    });

  return (
    <CCard className="mb-4">
      <CCardBody className="p-3 p-md-4">
        <h2 className="h5 mb-3">Your membership</h2>
        <div aria-live="polite">
          {notice && (
            <CAlert color="success" className="py-2">
              {notice}
            </CAlert>
          )}
        </div>
        {switcher.error != null && (
          <CAlert color="warning" role="alert">
            You left this account, but your next account could not be opened: {messageOf(switcher.error, "check your connection")}
            . Choose one from the avatar menu.
          </CAlert>
        )}
        {viewerRole === "owner" && (
          <section className="mb-4" aria-labelledby="team-transfer-title">
            <h3 id="team-transfer-title" className="h6">
              Transfer ownership
            </h3>
            <p className="text-body-secondary small">
              Hand this account to another member. They become an owner and you become an admin.
            </p>
            <TransferOwnership
              accountId={accountId}
              candidates={members.filter((m) => m.user_id !== viewerId && m.role !== "owner")}
              onDone={setNotice}
            />
          </section>
        )}
        <section aria-labelledby="team-leave-title">
          <h3 id="team-leave-title" className="h6">
            Leave this account
          </h3>
          {mayLeave ? (
            <>
              <p className="text-body-secondary small">
                You lose access to {accountName}’s properties and statistics. Your login and your other accounts stay.
              </p>
              <CButton
                color="danger"
                variant="outline"
                onClick={() => {
                  leave.reset();
                  setLeaving(true);
                }}
              >
                Leave account
              </CButton>
            </>
          ) : (
            <p className="text-body-secondary small mb-0">
              You are the only owner, so you cannot leave. Make another member an owner or transfer ownership first.
            </p>
          )}
        </section>
      </CCardBody>
      {leaving && (
        <ConfirmModal
          title={`Leave ${accountName}?`}
          action="Leave account"
          busy={leave.isPending || switcher.isPending}
          error={leave.error ? messageOf(leave.error, "You could not leave the account.") : null}
          onClose={() => setLeaving(false)}
          onConfirm={confirmLeave}
        >
          <p className="mb-0">
            You will no longer see <strong className="text-break">{accountName}</strong>. To come back, an admin must invite you
            again.
          </p>
        </ConfirmModal>
      )}
    </CCard>
  );
}
