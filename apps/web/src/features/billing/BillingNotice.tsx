// The app-wide billing notice (issue #24 point 3), above every signed-in screen: the server's
// sentence for the account's most urgent notice (locked, grace, a failed payment, usage over or
// near the limit, a limit reached), shown to all its members. Owners get the way to /billing;
// the others are told who can act. Usage and limit notices can be dismissed, once per kind and
// billing period, in this browser (notices.ts); locked, grace and a failed payment stay.
import { CAlert, CCloseButton } from "@coreui/react";
import { useState } from "react";
import { Link, useLocation } from "react-router-dom";
import { useSignedInSession } from "../auth/session";
import { useAccountRole } from "../me/queries";
import { DISMISSED_KEY, dismissKey, readDismissed, withDismissed } from "./notices";
import { useBillingNotice } from "./queries";
import "./billing.css";

function browserStorage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

export default function BillingNotice() {
  const { accountId } = useSignedInSession();
  const { can } = useAccountRole();
  const { pathname } = useLocation();
  const answer = useBillingNotice(accountId);
  const [dismissed, setDismissed] = useState(() => readDismissed(browserStorage()));
  const notice = answer.data?.notice;
  if (!notice || !answer.data) return null;
  const key = dismissKey(accountId, notice.kind, answer.data.period_start);
  if (key !== null && dismissed.includes(key)) return null;

  const dismiss = () => {
    if (key === null) return;
    const next = withDismissed(readDismissed(browserStorage()), key);
    try {
      browserStorage()?.setItem(DISMISSED_KEY, JSON.stringify(next));
    } catch {
      // Storage full or blocked: dismissed for this page's life only.
    }
    setDismissed(next);
  };
  const owner = can("own");
  const onBilling = pathname === "/billing";
  const urgent = notice.kind === "locked" || notice.kind === "grace" || notice.kind === "payment_failed";
  return (
    <CAlert color={notice.level} className="billing-notice py-2" role={urgent ? "alert" : "status"} data-notice={notice.kind}>
      <p className="billing-notice-text mb-0">
        {notice.message}
        {!owner && !onBilling && " Only the account's owners can change the plan."}
        {owner && !onBilling && (
          <>
            {" "}
            <Link to="/billing" className="alert-link text-nowrap">
              {urgent || notice.kind === "reached_100" || notice.kind === "sustained" ? "Upgrade" : "See billing"}
            </Link>
          </>
        )}
      </p>
      {key !== null && <CCloseButton aria-label="Dismiss this notice" onClick={dismiss} />}
    </CAlert>
  );
}
