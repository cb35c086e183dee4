// /team: the account's members and invitations. Not built yet; says what will come.
import { cilPeople } from "@coreui/icons";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";

export default function TeamPage() {
  return (
    <>
      <PageHeader title="Team" />
      <EmptyState
        icon={cilPeople}
        title="Team management is on its way"
        lead="The people who share this account will be managed here:"
        coming={[
          "Members and their roles: owner, admin, editor or viewer",
          "Invitations by e-mail, valid for 72 hours",
          "Changing a role or removing a member",
        ]}
      />
    </>
  );
}
