// /team (SPEC.md §2; issue #20): the current account's members with their roles, and for admins
// and owners the invite form, the pending invitations and the account's recent activity. Everyone
// sees the members; below admin the screen is read-only and says so (the server's policy decides
// either way: DESIGN.md §7). Leaving and transferring ownership close the page.
import { CAlert, CCard, CCardBody, CSpinner } from "@coreui/react";
import { PageHeader } from "../../components/PageHeader";
import { messageOf } from "../../lib/http";
import { useSignedInSession } from "../auth/session";
import { useAccountRole, useMe } from "../me/queries";
import { ActivityList } from "./ActivityCard";
import { InvitationsList } from "./InvitationsCard";
import { InviteForm } from "./InviteForm";
import { MembersCard } from "./MembersCard";
import { MembershipCard } from "./MembershipCard";
import { grantableRoles } from "./member-rules";
import { useMembers } from "./queries";
import "./team.css";

function Loading({ label }: { label: string }) {
  return (
    <div className="text-center py-4" role="status">
      <CSpinner size="sm" aria-hidden="true" /> <span className="visually-hidden">{label}</span>
    </div>
  );
}

export default function TeamPage() {
  const { accountId } = useSignedInSession();
  const me = useMe();
  const { role, can } = useAccountRole();
  const members = useMembers(accountId);
  const account = me.data?.accounts.find((a) => a.id === accountId);
  const isAdmin = can("admin");

  return (
    <div className="team-page">
      <PageHeader title="Team">
        {account && <span className="text-body-secondary text-break team-account-name">{account.name}</span>}
      </PageHeader>
      {role !== undefined && !isAdmin && (
        <CAlert color="info" className="py-2">
          Your role ({role ?? "none"}) can see the team but not change it. Admins and owners invite people and manage roles.
        </CAlert>
      )}
      {members.error ? (
        <CAlert color="danger" role="alert">
          {messageOf(members.error, "The members could not be loaded.")}
        </CAlert>
      ) : !members.data || !me.data ? (
        <Loading label="Loading the members" />
      ) : (
        <>
          <div className="team-members">
            <MembersCard accountId={accountId} members={members.data} viewerId={me.data.user.id} viewerRole={role ?? null} />
          </div>
          {isAdmin && (
            <CCard className="mb-4">
              <CCardBody className="p-3 p-md-4">
                <InviteForm accountId={accountId} roles={grantableRoles(role)} />
                <hr className="my-4" />
                <InvitationsList accountId={accountId} />
              </CCardBody>
            </CCard>
          )}
          {isAdmin && (
            <CCard className="mb-4">
              <CCardBody className="p-3 p-md-4">
                <ActivityList accountId={accountId} />
              </CCardBody>
            </CCard>
          )}
          <MembershipCard
            accountId={accountId}
            accountName={account?.name ?? "this account"}
            members={members.data}
            viewerId={me.data.user.id}
            viewerRole={role ?? null}
          />
        </>
      )}
    </div>
  );
}
