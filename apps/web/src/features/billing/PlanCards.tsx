// /billing › plans (Stripe mode, owners): a card per plan one can buy, smallest first, with its
// price for the chosen billing (monthly or yearly, kept in the URL as ?billing=year so a reload or
// a shared link keeps it), limits and features; the plan that fits this account's usage is marked
// "Suggested", the current one "Current plan". Choosing a plan opens the provider's checkout (a
// new subscription, or a change the provider prorates); the server answers where to go.
import CIcon from "@coreui/icons-react";
import { cilCheckAlt } from "@coreui/icons";
import { CAlert, CBadge, CButton, CCard, CCardBody, CCardFooter, CCardHeader, CSpinner } from "@coreui/react";
import type { BillingAnswer, BillingInterval, Plan } from "@lookout/schema";
import { Fragment, useId, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { formatFull } from "../../lib/format";
import { messageOf } from "../../lib/http";
import { formatMoney } from "./billing-format";
import { goTo } from "./go-to";
import { FEATURE_LABEL } from "./labels";
import { bestYearlySaving, CHOICE_LABEL, choiceFor, offeredPlans, sellsYearly, yearlySaving } from "./plans";
import { useCheckout } from "./queries";

const INTERVAL_PARAM = "billing";

function useInterval(initial: BillingInterval | null): [BillingInterval, (i: BillingInterval) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get(INTERVAL_PARAM);
  const interval: BillingInterval = raw === "year" || raw === "month" ? raw : (initial ?? "month");
  const set = (i: BillingInterval) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set(INTERVAL_PARAM, i);
        return next;
      },
      { replace: true },
    );
  return [interval, set];
}

function IntervalToggle({
  value,
  onChange,
  saving,
}: {
  value: BillingInterval;
  onChange: (i: BillingInterval) => void;
  saving: number | null;
}) {
  const name = useId();
  const options: { id: BillingInterval; label: string }[] = [
    { id: "month", label: "Monthly" },
    { id: "year", label: saving ? `Yearly (save up to ${saving} %)` : "Yearly" },
  ];
  return (
    <fieldset className="btn-group billing-interval" aria-label="Billing">
      {options.map((o) => (
        <Fragment key={o.id}>
          <input
            type="radio"
            className="btn-check"
            name={name}
            id={`${name}-${o.id}`}
            checked={value === o.id}
            onChange={() => onChange(o.id)}
          />
          <label className="btn btn-outline-primary btn-sm" htmlFor={`${name}-${o.id}`}>
            {o.label}
          </label>
        </Fragment>
      ))}
    </fieldset>
  );
}

function limitText(n: number | null, one: string, many: string): string {
  if (n === null) return `Unlimited ${many}`;
  return `${formatFull(n)} ${n === 1 ? one : many}`;
}

function Price({ plan, interval }: { plan: Plan; interval: BillingInterval }) {
  const price = plan.prices[interval];
  if (price === null)
    return <p className="billing-price text-body-secondary mb-0">Not sold {interval === "year" ? "yearly" : "monthly"}</p>;
  if (price === 0) {
    return (
      <div className="billing-price">
        <span className="h3 fw-semibold mb-0">Free</span>
      </div>
    );
  }
  const monthly = interval === "year" ? Math.round(price / 12) : null;
  const saving = interval === "year" ? yearlySaving(plan) : null;
  return (
    <div className="billing-price">
      <span className="h3 fw-semibold mb-0">{formatMoney(price, plan.prices.currency)}</span>
      <span className="text-body-secondary"> / {interval}</span>
      {monthly !== null && (
        <div className="small text-body-secondary">
          {formatMoney(monthly, plan.prices.currency)} a month{saving ? `, ${saving} % less than monthly` : ""}
        </div>
      )}
    </div>
  );
}

function PlanCard(props: {
  plan: Plan;
  billing: BillingAnswer;
  interval: BillingInterval;
  busy: boolean;
  disabled: boolean;
  onChoose: (plan: Plan) => void;
}) {
  const { plan, billing, interval } = props;
  const choice = choiceFor(billing.plans, plan, interval, billing.plan, billing.interval);
  const suggested = billing.suggested_plan === plan.id && choice !== "current";
  const current = plan.id === billing.plan;
  const headingId = useId();
  return (
    <CCard
      className={`h-100 billing-plan-card${suggested ? " border-primary billing-suggested" : ""}${current ? " billing-current" : ""}`}
      aria-labelledby={headingId}
      data-plan={plan.id}
    >
      <CCardHeader className="d-flex flex-wrap align-items-center justify-content-between gap-2 py-2">
        <h3 className="h5 mb-0 text-break" id={headingId}>
          {plan.name}
        </h3>
        {suggested && <CBadge className="bg-primary-subtle text-primary-emphasis border border-primary-subtle">Suggested</CBadge>}
        {current && <CBadge className="bg-body-tertiary text-body border">Current plan</CBadge>}
      </CCardHeader>
      <CCardBody>
        <Price plan={plan} interval={interval} />
        <ul className="list-unstyled mt-3 mb-0 small billing-plan-list">
          <li>{limitText(plan.limits.events, "billable event", "billable events")} a month</li>
          <li>{limitText(plan.limits.properties, "property", "properties")}</li>
          <li>{limitText(plan.limits.members, "member", "members")}</li>
          {plan.features.map((f) => (
            <li key={f} className="d-flex gap-2">
              <CIcon icon={cilCheckAlt} className="text-success flex-shrink-0 mt-1" aria-hidden="true" />
              <span>{FEATURE_LABEL[f]}</span>
            </li>
          ))}
        </ul>
      </CCardBody>
      <CCardFooter className="bg-transparent border-0 pt-0 pb-3">
        <CButton
          color="primary"
          variant={choice === "upgrade" || suggested ? undefined : "outline"}
          className="w-100"
          disabled={choice === "current" || choice === "unavailable" || props.disabled}
          aria-label={choice === "current" || choice === "unavailable" ? undefined : `${CHOICE_LABEL[choice]} to ${plan.name}`}
          onClick={() => props.onChoose(plan)}
        >
          {props.busy && <CSpinner size="sm" className="me-2" aria-hidden="true" />}
          {CHOICE_LABEL[choice]}
        </CButton>
      </CCardFooter>
    </CCard>
  );
}

export function PlanCards({ accountId, billing }: { accountId: string; billing: BillingAnswer }) {
  const [interval, setInterval] = useInterval(billing.interval);
  const checkout = useCheckout(accountId);
  const [chosen, setChosen] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);
  const plans = offeredPlans(billing.plans, billing.plan);
  const choose = (plan: Plan) => {
    setChosen(plan.id);
    setRefused(false);
    checkout.mutate(
      { plan: plan.id, interval },
      {
        onSuccess: ({ url }) => {
          if (!goTo(url)) setRefused(true);
        },
      },
    );
  };
  // After a successful answer the page is leaving: the button stays busy until it has.
  const busy = checkout.isPending || (checkout.isSuccess && !refused);
  return (
    <section className="mb-4 billing-plans" aria-labelledby="billing-plans-title">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h2 className="h5 mb-0" id="billing-plans-title">
          Plans
        </h2>
        {sellsYearly(billing.plans) && (
          <IntervalToggle value={interval} onChange={setInterval} saving={bestYearlySaving(plans)} />
        )}
      </div>
      {billing.suggested_plan === null && (
        <CAlert color="info" className="py-2">
          Your traffic is above what every plan includes. Contact us for a plan that fits; nothing stops tracking meanwhile.
        </CAlert>
      )}
      {checkout.error && (
        <CAlert color="danger" className="py-2" role="alert">
          {messageOf(checkout.error, "The checkout could not be started. Try again in a moment.")}
        </CAlert>
      )}
      {refused && (
        <CAlert color="danger" className="py-2" role="alert">
          The payment provider answered an address that cannot be opened. Nothing was changed.
        </CAlert>
      )}
      <div className="billing-plan-grid">
        {plans.map((p) => (
          <PlanCard
            key={p.id}
            plan={p}
            billing={billing}
            interval={interval}
            busy={busy && chosen === p.id}
            disabled={busy}
            onChoose={choose}
          />
        ))}
      </div>
      <p className="small text-body-secondary mt-3 mb-0">
        Prices exclude taxes where they apply. A change of plan takes effect at once and is prorated; an upgrade unlocks a locked
        account immediately.
      </p>
    </section>
  );
}
