// /billing › the current plan: its name and billing interval, the account's status (self-hosted,
// active, a grace period with the day the account locks, locked), a failed payment or a plan that
// ends at the period's end, and the plan's limits against what the account uses now. In Stripe
// mode the owner manages the card and invoices from here through the provider's portal.
import { CAlert, CBadge, CCard, CCardBody } from "@coreui/react";
import type { BillingAnswer } from "@lookout/schema";
import type { ReactNode } from "react";
import { formatFull } from "../../lib/format";
import { formatWhen } from "../me/when";
import { formatLastDay } from "./billing-format";
import { STATUS_COLOR, STATUS_LABEL } from "./labels";

export function StatusBadge({ status }: { status: BillingAnswer["status"] }) {
  const c = STATUS_COLOR[status];
  return (
    <CBadge className={`fw-semibold border bg-${c}-subtle text-${c}-emphasis border-${c}-subtle billing-status`}>
      {STATUS_LABEL[status]}
    </CBadge>
  );
}

function Limit({ label, used, limit }: { label: string; used: number | null; limit: number | null }) {
  return (
    <div className="billing-limit">
      <dt className="text-body-secondary small fw-normal">{label}</dt>
      <dd className="mb-0 fw-semibold">
        {used === null ? "" : `${formatFull(used)} of `}
        {limit === null ? "Unlimited" : formatFull(limit)}
      </dd>
    </div>
  );
}

/** What the status means for the account, in a sentence or two. */
function statusNote(b: BillingAnswer): { color: string; text: ReactNode } | null {
  if (b.status === "locked") {
    return {
      color: "danger",
      text: (
        <>
          <strong>Dashboards and the Stats API are locked.</strong> Your sites are still being tracked and no data is lost;
          settings, exports and billing stay open. Upgrade to a plan that fits your traffic to unlock at once.
        </>
      ),
    };
  }
  if (b.status === "grace") {
    const when = b.grace_ends_at ? formatWhen(b.grace_ends_at) : "the end of the grace period";
    const why = b.payment_failed
      ? "the last payment failed"
      : "the last two billing periods were both over the plan's limit by more than 10 %";
    return {
      color: "warning",
      text: (
        <>
          <strong>Grace period until {when}.</strong> Everything works for now, but {why}. Upgrade or update your payment method
          before then, or the dashboards lock (tracking goes on).
        </>
      ),
    };
  }
  if (b.payment_failed) {
    return { color: "warning", text: "The last payment failed. Update your payment method to keep the subscription." };
  }
  if (b.cancel_at_period_end) {
    return {
      color: "info",
      text: `This subscription ends after ${formatLastDay(b.usage.period_end)}; the account then returns to the free plan.`,
    };
  }
  return null;
}

export function PlanStatusCard({ billing, actions }: { billing: BillingAnswer; actions?: ReactNode }) {
  const selfHosted = billing.mode === "off";
  const note = statusNote(billing);
  return (
    <CCard className="mb-4 billing-plan">
      <CCardBody className="p-3 p-md-4">
        <div className="d-flex flex-wrap align-items-start justify-content-between gap-3">
          <div>
            <h2 className="h6 text-body-secondary fw-normal mb-1">Current plan</h2>
            <p className="h4 mb-2 d-flex flex-wrap align-items-center gap-2">
              <span className="billing-plan-name">{selfHosted ? "Unlimited" : billing.plan_name}</span>
              <StatusBadge status={billing.status} />
            </p>
            <p className="text-body-secondary mb-0 small">
              {selfHosted
                ? "Billing is off on this server: no limits. Usage is shown for your information."
                : billing.interval
                  ? `Billed ${billing.interval === "year" ? "yearly" : "monthly"}. This period ends on ${formatLastDay(billing.usage.period_end)}.`
                  : `No subscription. This period ends on ${formatLastDay(billing.usage.period_end)}.`}
            </p>
          </div>
          {actions}
        </div>
        {!selfHosted && (
          <dl className="billing-limits mt-3 mb-0">
            <Limit label="Events per period" used={null} limit={billing.limits.events} />
            <Limit label="Properties" used={billing.counts.properties} limit={billing.limits.properties} />
            <Limit label="Members" used={billing.counts.members} limit={billing.limits.members} />
          </dl>
        )}
        {note && (
          <CAlert color={note.color} className="mt-3 mb-0 py-2" role={note.color === "danger" ? "alert" : undefined}>
            {note.text}
          </CAlert>
        )}
      </CCardBody>
    </CCard>
  );
}
