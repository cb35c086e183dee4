// What a locked account's dashboard shows instead of its statistics (issue #24 point 3): the
// server answered 402 account_locked. Says that tracking goes on and nothing is lost, what is
// still open, and the way out: owners upgrade on /billing (an upgrade unlocks at once), other
// members ask an owner. A shared dashboard of a locked account says only that it is unavailable.
import { cilLockLocked } from "@coreui/icons";
import { CButton } from "@coreui/react";
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { useAccountRole } from "../me/queries";

/** The reason (the server's sentence) is the banner above; the panel says what it means. */
function MemberLocked() {
  const { can } = useAccountRole();
  const owner = can("own");
  return (
    <EmptyState
      icon={cilLockLocked}
      title="This account's dashboards are locked"
      lead="Tracking goes on and no data is lost: everything collected meanwhile appears once the account is unlocked. Settings, exports and billing stay open."
    >
      <div className="locked-actions">
        {owner ? (
          <CButton as={Link} to="/billing" color="primary">
            Upgrade to unlock
          </CButton>
        ) : (
          <p className="mb-0 fw-semibold">Ask an owner of this account to upgrade its plan.</p>
        )}
      </div>
    </EmptyState>
  );
}

export default function LockedPanel({ share }: { share?: string | undefined }) {
  if (share) {
    return (
      <EmptyState
        icon={cilLockLocked}
        title="This dashboard is unavailable for now"
        lead="The site's statistics are still being collected. Ask whoever shared this link to check their Lookout account."
      />
    );
  }
  return <MemberLocked />;
}
