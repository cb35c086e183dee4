// The bars of the usage history chart from the billing answer: the complete periods the answer
// lists (oldest first) and the current one last, 12 in all at most, each with the limit that
// applied to it (the current plan's for the current period).
import type { BillingAnswer } from "@lookout/schema";
import { formatPeriod, periodShortLabel } from "./billing-format";

/** One bar of the chart (UsageHistoryChart draws these). */
export interface PeriodBar {
  /** Short label under the bar ("Nov"). */
  label: string;
  /** The period spelt out for the tooltip ("1 Nov – 30 Nov 2026"). */
  title: string;
  events: number;
  /** The plan's limit in that period; null when unlimited. */
  limit: number | null;
  current: boolean;
}

/** Periods on the chart, the current one included. */
export const PERIODS_SHOWN = 12;

export function historyBars(billing: Pick<BillingAnswer, "history" | "usage" | "limits">, locale?: string): PeriodBar[] {
  const complete = billing.history.slice(-(PERIODS_SHOWN - 1)).map((p) => ({
    label: periodShortLabel(p.period_start, locale),
    title: formatPeriod(p.period_start, p.period_end, locale),
    events: p.events,
    limit: p.limit,
    current: false,
  }));
  const u = billing.usage;
  return [
    ...complete,
    {
      label: periodShortLabel(u.period_start, locale),
      title: `${formatPeriod(u.period_start, u.period_end, locale)}, this period`,
      events: u.events,
      limit: billing.limits.events,
      current: true,
    },
  ];
}
