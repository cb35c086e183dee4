// /billing › this period's usage: billable events (pageviews and custom events; not engagement
// pings, leave beacons or dropped events: DESIGN.md §4) so far against the plan's limit as a meter,
// with a tick where the 80 % and 90 % warnings fire, the projection to the period's end drawn
// lighter behind it, and the split by property. Self-hosted there is no limit: the count and the
// projection only.
import { CCard, CCardBody, CCardHeader } from "@coreui/react";
import type { BillingAnswer } from "@lookout/schema";
import { formatFull, formatPercent } from "../../lib/format";
import { daysLeft, formatLastDay, formatPeriod } from "./billing-format";

/** The meter's colour for a share of the limit. */
function tone(percent: number): string {
  if (percent >= 100) return "danger";
  if (percent >= 80) return "warning";
  return "primary";
}

function Meter({ events, projected, limit }: { events: number; projected: number; limit: number }) {
  const percent = limit > 0 ? (events / limit) * 100 : 100;
  const projectedPercent = limit > 0 ? (projected / limit) * 100 : 100;
  const width = (p: number) => `${Math.min(100, Math.max(0, p))}%`;
  return (
    <div
      className="progress billing-meter"
      role="progressbar"
      aria-label="Billable events this period against the plan's limit"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.min(100, Math.round(percent))}
      aria-valuetext={`${formatFull(events)} of ${formatFull(limit)} events (${formatPercent(percent)})`}
    >
      <div className={`billing-meter-projected bg-${tone(projectedPercent)}`} style={{ width: width(projectedPercent) }} />
      <div className={`progress-bar bg-${tone(percent)}`} style={{ width: width(percent) }} />
      <span className="billing-meter-tick" style={{ left: "80%" }} aria-hidden="true" />
      <span className="billing-meter-tick" style={{ left: "90%" }} aria-hidden="true" />
    </div>
  );
}

function ByProperty({ usage, total }: { usage: BillingAnswer["usage"]["by_property"]; total: number }) {
  if (usage.length === 0) return <p className="text-body-secondary small mb-0">No billable events this period yet.</p>;
  const rows = [...usage].sort((a, b) => b.events - a.events);
  return (
    <ul className="list-unstyled mb-0 billing-by-property">
      {rows.map((p) => {
        const share = total > 0 ? (p.events / total) * 100 : 0;
        return (
          <li key={p.property_id} className="billing-property-row">
            <div className="d-flex justify-content-between gap-3">
              {/* Property names are the owner's words: text only. */}
              <span className="text-break billing-property-name">{p.name || p.property_id}</span>
              <span className="text-nowrap">
                {formatFull(p.events)} <span className="text-body-secondary small">({formatPercent(share)})</span>
              </span>
            </div>
            <div className="billing-share" aria-hidden="true">
              <div className="billing-share-bar bg-primary" style={{ width: `${Math.min(100, share)}%` }} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export function UsageCard({ billing, now }: { billing: BillingAnswer; now: Date }) {
  const { usage } = billing;
  const limit = billing.limits.events;
  const left = daysLeft(usage.period_end, now);
  const over = limit !== null && usage.projected > limit;
  return (
    <CCard className="mb-4 billing-usage">
      <CCardHeader className="py-2 d-flex flex-wrap justify-content-between gap-2">
        <h2 className="h6 mb-0">Usage this period</h2>
        <span className="small text-body-secondary">{formatPeriod(usage.period_start, usage.period_end)}</span>
      </CCardHeader>
      <CCardBody className="p-3 p-md-4">
        <p className="mb-2">
          <span className="h3 fw-semibold billing-usage-count">{formatFull(usage.events)}</span>{" "}
          <span className="text-body-secondary">
            {limit === null ? "billable events" : `of ${formatFull(limit)} billable events`}
            {usage.percent !== null && ` (${formatPercent(usage.percent)})`}
          </span>
        </p>
        {limit !== null && <Meter events={usage.events} projected={usage.projected} limit={limit} />}
        <p className={`small mt-2 mb-0 ${over ? "text-body fw-semibold" : "text-body-secondary"} billing-projection`}>
          {left > 0
            ? `At this pace about ${formatFull(usage.projected)} by the end of ${formatLastDay(usage.period_end)} (${left} ${left === 1 ? "day" : "days"} left)`
            : `About ${formatFull(usage.projected)} by the end of the period`}
          {limit !== null && `: ${formatPercent(limit > 0 ? (usage.projected / limit) * 100 : 100)} of the limit`}
          {over && ". That is over the plan's limit: see the suggested plan below."}
        </p>
        <p className="small text-body-secondary mt-2 mb-0">
          Billable events are pageviews and custom events across all your properties. Engagement pings and dropped events are not
          counted, and going over the limit never stops tracking.
        </p>
        <h3 className="h6 mt-4 mb-2">By property</h3>
        <ByProperty usage={usage.by_property} total={usage.events} />
      </CCardBody>
    </CCard>
  );
}
