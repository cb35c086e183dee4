// /billing (SPEC.md §2; issue #24): for owners, the current plan and status, this period's usage
// against the limit with its projection and split by property, the last 12 periods as a chart, and
// in Stripe mode the plans (the suggested one marked; upgrade or downgrade through checkout), the
// portal for the card and invoices, and the invoices. Self-hosted (LOOKOUT_BILLING=off) it shows
// usage only. Billing is the owners' (DESIGN.md §7): other members see the plan and status and who
// to ask. Back from checkout (?checkout=success|cancel) it says what happened and refreshes.
import { CAlert, CButton, CCard, CCardBody, CPlaceholder } from "@coreui/react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { PageHeader } from "../../components/PageHeader";
import { messageOf } from "../../lib/http";
import { useSignedInSession } from "../auth/session";
import { useAccountRole, useMe } from "../me/queries";
import { HistoryCard } from "./HistoryCard";
import { InvoicesCard, PortalButton } from "./InvoicesCard";
import { PlanCards } from "./PlanCards";
import { PlanStatusCard, StatusBadge } from "./PlanStatusCard";
import { UsageCard } from "./UsageCard";
import { billingKeys, useBilling, useBillingNotice } from "./queries";
import "./billing.css";

function Loading() {
  return (
    <div role="status" aria-label="Loading billing">
      <CCard className="mb-4">
        <CCardBody>
          <CPlaceholder as="div" animation="glow" aria-hidden="true">
            <CPlaceholder xs={4} className="rounded mb-3" />
            <CPlaceholder xs={12} className="rounded billing-skeleton" />
          </CPlaceholder>
        </CCardBody>
      </CCard>
    </div>
  );
}

/**
 * Members below owner: the plan and status from the banner's call, and who manages billing (the
 * notice itself, if any, is the banner above the page).
 */
function NotOwner({ accountId }: { accountId: string }) {
  const notice = useBillingNotice(accountId);
  const n = notice.data;
  return (
    <>
      <CAlert color="info" className="py-2 billing-not-owner">
        Only the account's owners manage billing. Ask an owner (see Team) to change the plan or the payment method.
      </CAlert>
      {n && (
        <CCard className="mb-4 billing-plan">
          <CCardBody className="p-3 p-md-4">
            <h2 className="h6 text-body-secondary fw-normal mb-1">Current plan</h2>
            <p className="h4 mb-0 d-flex flex-wrap align-items-center gap-2">
              <span className="billing-plan-name">{n.mode === "off" ? "Unlimited" : n.plan_name}</span>
              <StatusBadge status={n.status} />
            </p>
          </CCardBody>
        </CCard>
      )}
    </>
  );
}

/** What checkout said on the way back; the subscription itself arrives by webhook, hence the refresh. */
function useCheckoutReturn(accountId: string): ["success" | "cancel" | null, () => void] {
  const [params, setParams] = useSearchParams();
  const client = useQueryClient();
  const [outcome, setOutcome] = useState<"success" | "cancel" | null>(null);
  const raw = params.get("checkout");
  useEffect(() => {
    if (raw !== "success" && raw !== "cancel") return;
    setOutcome(raw);
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete("checkout");
        return next;
      },
      { replace: true },
    );
    void client.invalidateQueries({ queryKey: billingKeys.account(accountId) });
  }, [raw, setParams, client, accountId]);
  return [outcome, () => setOutcome(null)];
}

/** How long the page keeps asking for the new plan after a successful checkout. */
const AWAIT_WEBHOOK_MS = 60_000;

function OwnerBilling({ accountId }: { accountId: string }) {
  const [now] = useState(() => new Date());
  const [checkout, dismissCheckout] = useCheckoutReturn(accountId);
  const [awaiting, setAwaiting] = useState(false);
  useEffect(() => {
    if (checkout !== "success") return;
    setAwaiting(true);
    const t = setTimeout(() => setAwaiting(false), AWAIT_WEBHOOK_MS);
    return () => {
      clearTimeout(t);
      setAwaiting(false);
    };
  }, [checkout]);
  const billing = useBilling(accountId, true, awaiting);
  const b = billing.data;
  if (billing.error) {
    return (
      <CAlert color="danger" role="alert" className="d-flex flex-wrap align-items-center justify-content-between gap-2">
        <span>{messageOf(billing.error, "Billing could not be loaded.")}</span>
        <CButton color="danger" variant="outline" size="sm" onClick={() => void billing.refetch()}>
          Retry
        </CButton>
      </CAlert>
    );
  }
  if (!b) return <Loading />;
  const stripe = b.mode === "stripe";
  // The portal needs a customer at the provider: someone who subscribed (or was invoiced) once.
  const subscribed = b.interval !== null || b.invoices.length > 0;
  return (
    <>
      {checkout && (
        <CAlert color={checkout === "success" ? "success" : "info"} dismissible onClose={dismissCheckout} className="py-2">
          {checkout === "success"
            ? "Thank you: the payment went through. The new plan shows here as soon as the provider confirms it."
            : "Checkout was cancelled; nothing changed."}
        </CAlert>
      )}
      <PlanStatusCard billing={b} actions={stripe && subscribed ? <PortalButton accountId={accountId} /> : undefined} />
      <div className="billing-grid">
        <UsageCard billing={b} now={now} />
        <HistoryCard billing={b} />
      </div>
      {stripe && <PlanCards accountId={accountId} billing={b} />}
      {stripe && <InvoicesCard invoices={b.invoices} />}
    </>
  );
}

export default function BillingPage() {
  const { accountId } = useSignedInSession();
  const me = useMe();
  const { role, can } = useAccountRole();
  const account = me.data?.accounts.find((a) => a.id === accountId);
  return (
    <div className="billing-page">
      <PageHeader title="Billing">{account && <span className="text-body-secondary text-break">{account.name}</span>}</PageHeader>
      {me.error ? (
        <CAlert color="danger" role="alert">
          {messageOf(me.error, "Your account could not be loaded.")}
        </CAlert>
      ) : role === undefined ? (
        <Loading />
      ) : can("own") ? (
        // Keyed by account: a switch of account starts from a clean page (no other account's plan).
        <OwnerBilling key={accountId} accountId={accountId} />
      ) : (
        <NotOwner accountId={accountId} />
      )}
    </div>
  );
}
