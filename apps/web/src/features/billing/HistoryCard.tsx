// /billing › the last 12 billing periods as bars (the current one last, still filling), with the
// plan's limit; periods over the enforcement margin (limit × 1.1) are named under the chart, as two
// in a row are what starts a grace period. The chart and its ECharts parts load on first use.
import { CCard, CCardBody, CCardHeader, CPlaceholder } from "@coreui/react";
import type { BillingAnswer } from "@lookout/schema";
import { lazy, Suspense, useMemo } from "react";
import { formatFull } from "../../lib/format";
import { formatPeriod } from "./billing-format";
import { historyBars } from "./history";

const UsageHistoryChart = lazy(() => import("./UsageHistoryChart"));

export function HistoryCard({ billing }: { billing: BillingAnswer }) {
  const bars = useMemo(() => historyBars(billing), [billing]);
  const overMargin = billing.history.filter((p) => p.over_margin).slice(-3);
  const label = `Billable events per billing period, the last ${bars.length}: ${bars
    .map((b) => `${b.title} ${formatFull(b.events)}`)
    .join("; ")}`;
  return (
    <CCard className="mb-4 billing-history">
      <CCardHeader className="py-2 d-flex flex-wrap justify-content-between gap-2">
        <h2 className="h6 mb-0">Usage history</h2>
        <span className="small text-body-secondary">
          {bars.length === 1 ? "This period so far" : `The last ${bars.length} periods`}
        </span>
      </CCardHeader>
      <CCardBody className="p-3 p-md-4">
        <Suspense
          fallback={
            <CPlaceholder as="div" animation="glow" aria-hidden="true">
              <CPlaceholder xs={12} className="rounded billing-history-chart" />
            </CPlaceholder>
          }
        >
          <UsageHistoryChart bars={bars} ariaLabel={label} />
        </Suspense>
        {billing.mode === "stripe" && overMargin.length > 0 && (
          <p className="small text-body-secondary mt-2 mb-0">
            Over the limit by more than 10 %: {overMargin.map((p) => formatPeriod(p.period_start, p.period_end)).join(", ")}. Two
            such periods in a row start a 7-day grace period.
          </p>
        )}
      </CCardBody>
    </CCard>
  );
}
